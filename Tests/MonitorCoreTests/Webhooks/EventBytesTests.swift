import AASA
import Foundation
import MonitorCore
import MonitorEvaluation
import Testing

/// The bytes every kind of event is stored and sent as: the outbox's JSON and the body of each webhook format are
/// public interface, so a change of the in-memory event type must not move a byte. Each body is held as its
/// SHA-256 (the whole text is printed when one differs).
@Suite("Event bytes in the outbox and in every webhook format")
struct EventBytesTests {
    static let at = Date(timeIntervalSince1970: 1_795_288_323)

    static func document(_ json: String) -> AASADocument {
        AASAParser.parse(Array(json.utf8)).document!
    }

    static let diff = AASADiff.compare(
        document(#"{"applinks":{"details":[{"appIDs":["9JA89QQLNQ.com.example.app"],"components":[{"/":"/a/*"}]}]}}"#),
        document(#"{"applinks":{"details":[{"appIDs":["9JA89QQLNQ.com.example.app"],"components":[{"/":"/b/*"}]}]}}"#))

    static let digest = IncidentDigest(
        incident: "evt_00",
        started: [
            IncidentDigest.Item(
                code: .originBotBlocked, source: .wellKnown, subject: "", severity: .error,
                message: "the origin refuses Apple's fetcher", appleReason: "SWCERR00101 Bad HTTP Response: 403",
                consequences: ["cdn.missing on cdn: Apple's CDN has no copy"],
                flapping: IncidentDigest.Flapping(firings: 3, window: 3600, hold: 3600))
        ],
        stillFailing: [
            IncidentDigest.Item(
                code: .expectURL, source: .wellKnown, subject: "https://example.com/buy", severity: .warning,
                message: "no longer opens the app", reminder: true)
        ],
        recovered: [
            IncidentDigest.Item(
                code: .originSlow, source: .root, subject: "", severity: .warning,
                message: "The origin serves the file as Apple needs it again.", flapping: IncidentDigest.Flapping())
        ],
        notes: ["Origin changed: rule changed"])

    /// One event of every kind, and the variants a renderer tells apart (reminder, flapping, a digest's title).
    static let events: [(name: String, event: MonitorEvent)] = {
        let firing = MonitorEvent(
            id: "evt_01", occurredAt: at, domain: "example.com",
            payload: .alertFiring(
                MonitorEvent.Alert(
                    code: .cdnMissing, source: .cdn, subject: "", severity: .error,
                    message: "Apple's CDN has no copy <@here> & \"x\"",
                    detail: ["apple_failure_reason": "SWCERR00301 Timeout", "age": 12, "ratio": .double(0.5)],
                    verdict: .cdnMissing, flapping: true, incident: "evt_00"),
                reminder: false, consequences: ["cdn.stale on cdn: stale"]))
        let reminder = MonitorEvent(
            id: "evt_02", occurredAt: at, domain: "example.com",
            payload: .alertFiring(
                MonitorEvent.Alert(
                    code: .expectURL, source: .wellKnown, subject: "https://example.com/buy", severity: .warning,
                    message: "no app", verdict: .expectationFailed),
                reminder: true, consequences: []))
        let resolved = MonitorEvent(
            id: "evt_03", occurredAt: at, domain: "example.com",
            payload: .alertResolved(
                MonitorEvent.Alert(
                    code: .originRedirect, source: .wellKnown, severity: .error, message: "redirects",
                    detail: ["status": 301], verdict: .ready, flapping: true, incident: "evt_00")))
        let unknownCode = MonitorEvent(
            id: "evt_04", occurredAt: at, domain: "example.com",
            payload: .alertFiring(
                MonitorEvent.Alert(
                    code: FindingCode(storedID: "origin.from_the_future"), source: .root, severity: .warning,
                    message: "a code this version does not know"),
                reminder: false, consequences: []))
        // As the ledger makes them: the code, source, subject, severity and summary line follow from the digest.
        let incident = MonitorEvent(
            id: "evt_05", occurredAt: at, domain: "example.com", payload: .incident(digest, verdict: .originBroken))
        let recoveredOnly = MonitorEvent(
            id: "evt_06", occurredAt: at, domain: "example.com",
            payload: .incident(IncidentDigest(incident: "", recovered: digest.recovered), verdict: .ready))
        let conditionSince = at.addingTimeInterval(-600)
        let condition = MonitorConditions.Condition(code: .monitorNetwork, since: conditionSince, message: "no network")
        return [
            ("alert.firing", firing),
            ("alert.firing reminder", reminder),
            ("alert.resolved", resolved),
            ("alert.firing of an unknown code", unknownCode),
            (
                "origin.changed",
                .originChanged(id: "evt_07", domain: "example.com", diff: diff, verdict: .ready, at: at)
            ),
            (
                "cdn.propagated",
                .cdnPropagated(
                    id: "evt_08", domain: "example.com", delaySeconds: 5_400, hash: "sha256:ab", verdict: .ready, at: at
                )
            ),
            ("incident", incident),
            ("incident, recovered only", recoveredOnly),
            ("monitor.firing", .monitor(.fired(condition), id: "evt_09")),
            ("monitor.resolved", .monitor(.resolved(condition, at: at), id: "evt_10")),
            ("test", .test(id: "evt_11", at: at)),
        ]
    }()

    /// The SHA-256 of each event's outbox JSON, then of its body as standard, slack, discord and teams.
    static let golden: [String: [String]] = [
        "alert.firing": [
            "sha256:68f1df2da01c5d0e83d6808830ea314f84ffd5cf217876a0c37573e45e49b475",
            "sha256:7c5324df3922e2b494e582db96c80b44293c79b161cc4e7d569f7abbaf84c559",
            "sha256:b2644f3d6aa7a1a9a64aab56aa43ebc428cacfaf03c7cf3003ea7e243dc8389d",
            "sha256:fe7ef04fe675465963912ef1d04f6b9e1c88fdf86d089a67961844188203f2d8",
            "sha256:b2dbe498f94ed9f08b0aed3c8bdef49334023be4715a52ed7bae5988e6774174",
        ],
        "alert.firing reminder": [
            "sha256:8fc4a17f2f1d99e9bf7639df867db64c4022ee0f249e07c0ea07153072902482",
            "sha256:ecb44fc4ceb10e3f194304c0db37bc127c78b44a29e2ca157e58a4a5a9ccde3d",
            "sha256:7e801e770b7b5b11ef4c310f1eb4f7ea9afb3c79d9da5252f26b30155156fc31",
            "sha256:19fc15b183edfe3cb63c30616c26b52bde54426c1e912fe0e8de643f591b5c7c",
            "sha256:b0b13cd56f4e6e93ad9fc262f5a265346a4bbbf17f0d772158a287027baf4ec7",
        ],
        "alert.resolved": [
            "sha256:7547683a1c0d6250082f22dc9cd517e3d5af7f2933f593ef6520bcd16a6e3507",
            "sha256:f8ac061a853ce8a7297eaec8c0a71d3d26216f7a5a18118973813c143149b900",
            "sha256:b7def7d0ecab94a6f7f03815c06b4fa6d4b5aa14b545b8b8ad0c14225755d019",
            "sha256:82bd492ce32baabdcf53c5232802268d66e6a35db39a90663b4bf75361b94b11",
            "sha256:41cc930d0346ef9232d9086164eb34398cf70af71d392043441761b2945469ea",
        ],
        "alert.firing of an unknown code": [
            "sha256:de5d73457fb0946fe103c4992786286fc71b1f040ee9405a3c77b32b6cd7095c",
            "sha256:416b965291d35b11e3d67877b857690ea9a2943ace3bd00973771c71113a775d",
            "sha256:0124c85135c05690f207d151249c1510b9312dd362d9975b68d8a38f631e8794",
            "sha256:e5080ad95579c07c48f375145491fb730fcad0f1779aba2ad19fb1d2f0837684",
            "sha256:498fa136ea0566d82797307b5b10b1a6d2b45a07ad6011043d5fc304331fc6cf",
        ],
        "origin.changed": [
            "sha256:d196c2dd43b428bb64f0cd0a1f4b415acc3d594f9665674a00561a4a69eba5ab",
            "sha256:6ea0a9e9cc9fb3e875dd1afbd2976f8cd5d4a7eea8abe718a77c90f165e73959",
            "sha256:a54ec40638b317ecd04162cd32a6bf6c925407883b7f66774f72bb402b5a1767",
            "sha256:bcd396e14ef5182ca4722cc60b976fa9f885d93a1419b0133ddf103fe624792c",
            "sha256:fc4b4721e8e54d38acc3ace37ca9cab615e525c329ca3bcbcf91a21e11142188",
        ],
        "cdn.propagated": [
            "sha256:87a3440977318553f294669f57b2b60ed70c9b5d4a1c7903b125a18a00556dfa",
            "sha256:f23309b5d535dd498eb2aa44cd171c7963d694c83f909a1f3d6e197043d0e65f",
            "sha256:0447bc7853ee40894afac1472198fb2104fa1a00141f251970cbba82378deb73",
            "sha256:a2fce600efd5a3037d05fc4f97341c25cf796128c8aed0bb2a22032d79a27eb1",
            "sha256:d4345abfb92b49ced1e6e2eac6978d610f08c365b06fdedd91b6fa3e94095050",
        ],
        "incident": [
            "sha256:9446fd2954421479482ec965a029c53f7969c5ec3b80c76b3fd1d6b71f45ee4c",
            "sha256:2ecedd820ca68a5ebcae34356632e1bc1193e1d2f13a831d036e64c51637113a",
            "sha256:34274da0e503de83849fd93ba61a0a414f3044b798b50f1251030de95e01c521",
            "sha256:be7b9c967a7020fd5f1768e1c20b3b5dd9c35c4ac556c5ffcfe7da9a0d1ff1d6",
            "sha256:682cbb3792a5941427a3cb395d585d0ab932635720cef7e8eea4abb0e1964442",
        ],
        "incident, recovered only": [
            "sha256:a561290b6a37e36184b5acb03c0ca311d200851b5c930db55035fb3b93f84db3",
            "sha256:ee042a67c9b54116c415f291881ffc2b932b937f60eabbf3febe95c33d9c4ed0",
            "sha256:e07dbdf57bccdc57ef5107b160f3a1a1544b2bfb2307cf6f650dbb7b2524902c",
            "sha256:a1276121b8e8d221d1426fa0d59a3a920a0c1d299da836c6e3dab22f4bc9d3de",
            "sha256:5795d68afe0454e43d130e7183c1ae652eb4672d482baa50520fcc9034b42a1a",
        ],
        "monitor.firing": [
            "sha256:4d255aec2abd391acd61e98cbbc4be2f067e3645dabf7fd2ea4e292c25732166",
            "sha256:921d527814b94f101d0fe6a87c654c4286ce9e37baca7b5efd4e9d337f30643a",
            "sha256:28b8405657d325a02d3a1a626194c254d3f98018b0e8a1ef001abdc9ccd8004a",
            "sha256:2927f887e61ce4fa09fa2735ce68cb532dcf04c4b4ae4ea81e648bbda0f89d7b",
            "sha256:7aa7f5686bfd2613cb48e0ff1474d3d64c7d5ac8eb660d45d6cc1d55fe350008",
        ],
        "monitor.resolved": [
            "sha256:a9c65394de11b7f8e4164669cdda8702da21b9cf113af48bff726695625d797b",
            "sha256:35701d1f9101e64a7b2adc71d12eec79d62a84776b22176e40143ec1b562a276",
            "sha256:4c6e4ab17c56f2675f7529381906c55eea760d7f7ec3304b8ac839ecca16d647",
            "sha256:60c1543f344e0b0582c9da4820954aec4492de9a355d0964cdd0ed23a3fec2d4",
            "sha256:fc6051b849bb814a913a3604c6adb21fb5abd916efa9c1219e459ee439507299",
        ],
        "test": [
            "sha256:d34331df036725a68482795dd1cd66a95c1d180154b8dc2b33f0f65d0a1fc06d",
            "sha256:9fefe44aa39131b95d31c76f36ece5de25aa854fdae86b9081653a4b70e8d0d1",
            "sha256:8de2ce117df140fe6dfbbc3ceb0ffedd5187658d061d108ab5430ccb15327a29",
            "sha256:edec8a78a395726ab6baabd314b2ae0719f760bf23971c9ea2c7c0056b6aab6f",
            "sha256:6c2de1bd53d8121880405025c0b9f3a11cf1183526910849ce173d3d187e9f97",
        ],
    ]

    static func bodies(_ event: MonitorEvent) throws -> [String] {
        let outbox = try MonitorJSON.encoder().encode(event)
        let rendered = try WebhookFormat.allCases.map {
            String(decoding: try WebhookPayload.render(event: event, format: $0, deliveryID: "msg_1"), as: UTF8.self)
        }
        return [String(decoding: outbox, as: UTF8.self)] + rendered
    }

    @Test("every kind encodes to the same bytes in the outbox and in every format", arguments: events.map(\.name))
    func bytes(name: String) throws {
        let event = try #require(Self.events.first { $0.name == name }?.event)
        let bodies = try Self.bodies(event)
        let hashes = bodies.map { CanonicalJSON.hash(canonicalBytes: Array($0.utf8)) }
        let golden = try #require(Self.golden[name])
        for (index, body) in bodies.enumerated() {
            let form = index == 0 ? "outbox" : "\(WebhookFormat.allCases[index - 1])"
            #expect(hashes[index] == golden[index], "\(form): \(body)")
        }
    }

    @Test("an event read back from the outbox is written again byte for byte", arguments: events.map(\.name))
    func roundTrip(name: String) throws {
        let event = try #require(Self.events.first { $0.name == name }?.event)
        let data = try MonitorJSON.encoder().encode(event)
        let read = try MonitorJSON.decoder().decode(MonitorEvent.self, from: data)
        #expect(try MonitorJSON.encoder().encode(read) == data)
    }

    @Test("an alert written before incidents, causes and digests were kept still reads and renders")
    func olderOutboxRow() throws {
        let stored = #"""
            {"code":"origin.redirect","detail":{"status":301},"domain":"example.com","flapping":false,\#
            "id":"evt_01","message":"redirects","occurred_at":"2026-11-21T19:12:03Z","reminder":false,\#
            "severity":"error","source":"origin.well-known","subject":"","type":"alert.firing","verdict":"origin_broken"}
            """#
        let event = try MonitorJSON.decoder().decode(MonitorEvent.self, from: Data(stored.utf8))
        let body = try WebhookPayload.render(event: event, format: .standard, deliveryID: "msg_1")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
        #expect(json["code"] as? String == "origin.redirect")
        #expect(json["incident"] is NSNull)
        #expect(json["consequences"] as? [String] == [])
    }
}
