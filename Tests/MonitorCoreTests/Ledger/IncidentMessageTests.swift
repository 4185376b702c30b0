import AASA
import Foundation
import MonitorCore
import MonitorEvaluation
import Testing

/// What people are told, from their side: a site's behaviour in, the messages each webhook gets out.
@Suite("Incident messages")
struct IncidentMessageTests {
    typealias F = ObservationFixtures

    static let slack = WebhookConfiguration(name: "chat", url: "https://hooks.slack.test/T/B/x", format: .slack)
    static let program = WebhookConfiguration(name: "program", url: "https://hooks.example.test/in")
    static let policy = LedgerPolicy(alerts: AlertPolicy(failureThreshold: 1), webhooks: [slack, program])

    /// Feeds the checks to the ledger in order, one minute apart; returns each check's deliveries.
    static func run(
        _ observations: [DomainObservation], policy: LedgerPolicy = policy, expectations: Expectations = Expectations()
    ) -> [[LedgerDelivery]] {
        outcomes(observations, policy: policy, expectations: expectations).map(\.deliveries)
    }

    /// The ledger's whole outcome per check, the store's part played by a dictionary of documents.
    static func outcomes(
        _ observations: [DomainObservation], policy: LedgerPolicy = policy,
        expectations: Expectations = Expectations()
    ) -> [LedgerOutcome] {
        var snapshot = DomainSnapshot()
        var documents: [String: String] = [:]
        var counter = 0
        var result: [LedgerOutcome] = []
        for (index, observation) in observations.enumerated() {
            let now = F.now.addingTimeInterval(Double(index) * 60)
            let report = DomainEvaluator.evaluate(
                observation, expectations: expectations,
                context: EvaluationContext(staleSince: snapshot.state?.staleSince), now: now)
            snapshot.previousOriginDocument = DomainLedger.documentNeeded(state: snapshot.state, report: report)
                .flatMap { documents[$0] }
            documents.merge(report.documents) { old, _ in old }
            let outcome = DomainLedger.apply(
                snapshot, report: report, policy: policy,
                makeID: {
                    counter += 1
                    return "evt_\(counter)"
                })
            snapshot.state = outcome.state
            snapshot.alerts = outcome.alerts
            result.append(outcome)
        }
        return result
    }

    /// The Slack text of a delivery, as the receiver would render it.
    static func slackText(_ delivery: LedgerDelivery) throws -> String {
        let body = try WebhookPayload.render(event: delivery.event, format: .slack, deliveryID: delivery.deliveryID)
        return String(decoding: body, as: UTF8.self)
    }

    static let waf = F.observation(
        wellKnown: F.status(403), plain: F.json(F.document), root: F.status(403),
        cdn: F.status(
            404,
            headers: [HeaderField(name: "Apple-Failure-Reason", value: "SWCERR00101 Bad HTTP Response: 403 Forbidden")]
        ))

    @Test("a WAF blocking Apple's fetcher is one chat message naming the block, with Apple's miss under it")
    func wafIsOneMessage() throws {
        let checks = Self.run([Self.waf, Self.waf, Self.waf])
        let chat = checks.flatMap { $0.filter { $0.webhook == "chat" } }
        #expect(chat.count == 1)
        let text = try Self.slackText(try #require(chat.first))
        #expect(text.contains("origin.bot_blocked"))
        #expect(text.contains("because of it: cdn.missing"))
        #expect(text.contains("SWCERR00101"))
        // Programs get one event per alert: here one alert, carrying its incident and consequences.
        let program = checks.flatMap { $0.filter { $0.webhook == "program" } }
        #expect(program.map(\.event.alert?.code) == [.originBotBlocked])
        #expect(program.first?.event.alert?.incident == "evt_1")
        guard case .alertFiring(_, _, let consequences)? = program.first?.event.payload else {
            Issue.record("not an alert.firing")
            return
        }
        #expect(consequences.contains { $0.hasPrefix("cdn.missing on cdn") })
    }

    @Test("a healthy domain gets no message")
    func healthyIsQuiet() {
        let checks = Self.run([F.observation(), F.observation()])
        #expect(checks.allSatisfy { $0.isEmpty })
    }

    @Test("a CDN copy minutes behind reaches only webhooks that asked for warnings")
    func staleWarningIsRouted() {
        var warnings = Self.slack
        warnings.name = "warnings"
        warnings.minSeverity = .warning
        let policy = LedgerPolicy(alerts: AlertPolicy(failureThreshold: 1), webhooks: [Self.slack, warnings])
        let behind = F.observation(cdn: F.json(F.olderDocument, headers: F.cdnHeaders))
        let deliveries = Self.run([behind, behind], policy: policy).flatMap { $0 }
        #expect(deliveries.map(\.webhook) == ["warnings"])
    }

    @Test("a deploy says what changed, in chat and in the history beside the hashes")
    func originChangeSaysWhat() throws {
        let before = F.observation(
            wellKnown: F.json(F.olderDocument), cdn: F.json(F.olderDocument, headers: F.cdnHeaders))
        let outcomes = Self.outcomes([before, F.observation()])
        let changed = try #require(outcomes[1].timeline.first { $0.kind == .originChanged })
        let changes = try #require(changed.detail["changes"]?.arrayValue)
        #expect(changes.contains { $0.stringValue?.contains("/buy/gift*") == true })
        let chat = try #require(outcomes[1].deliveries.first { $0.webhook == "chat" })
        let text = try Self.slackText(chat)
        #expect(text.contains("Origin changed:"))
        #expect(text.contains("/buy/gift*"))
    }

    @Test("fixing the block is one message saying what is right now")
    func resolvedSaysWhatIsRight() throws {
        let checks = Self.run([Self.waf, F.observation()])
        let resolved = try #require(checks[1].first { $0.webhook == "chat" })
        let text = try Self.slackText(resolved)
        #expect(text.contains("Resolved"))
        #expect(text.contains("The origin serves the file as Apple needs it again"))
        #expect(!text.contains("Started failing"))
    }
}
