import AASA
import Foundation
import MonitorCore
import MonitorEvaluation

/// Hand-built observations for evaluation tests: a domain that answers like a healthy site unless told otherwise.
enum ObservationFixtures {
    static let now = Date(timeIntervalSince1970: 1_795_000_000)
    static let domain = "shop.test"
    static let app = "9JA89QQLNQ.com.example.shop"

    /// A modern file: `/buy/*` opens the app, `/buy/gift*` does not.
    static let document = """
        {"applinks":{"details":[{"appIDs":["\(app)"],"components":[
          {"/":"/buy/gift*","exclude":true},{"/":"/buy/*"}]}]},
         "webcredentials":{"apps":["\(app)"]}}
        """

    /// The same meaning, re-serialized the way Apple's CDN does (other key order, other whitespace).
    static let documentReserialized = """
        {
            "webcredentials" : { "apps" : [ "\(app)" ] },
            "applinks" : { "details" : [ { "components" : [ { "exclude" : true, "/" : "/buy/gift*" },
                { "/" : "/buy/*" } ], "appIDs" : [ "\(app)" ] } ] }
        }
        """

    /// An older version: only `/buy/*`, without the gift exclusion.
    static let olderDocument = """
        {"applinks":{"details":[{"appIDs":["\(app)"],"components":[{"/":"/buy/*"}]}]},
         "webcredentials":{"apps":["\(app)"]}}
        """

    static let certificate = CertificateFacts(
        subject: "CN=shop.test", issuer: "CN=Test CA", subjectAlternativeNames: ["shop.test"],
        notBefore: now.addingTimeInterval(-86_400 * 30), notAfter: now.addingTimeInterval(86_400 * 60))

    static func json(_ text: String, status: Int = 200, headers: [HeaderField] = []) -> FetchObservation.Outcome {
        .response(
            FetchResponse(
                status: status, headers: [HeaderField(name: "Content-Type", value: "application/json")] + headers,
                body: Array(text.utf8), httpVersion: "2"))
    }

    static func status(_ status: Int, headers: [HeaderField] = [], location: String? = nil) -> FetchObservation.Outcome
    {
        .response(FetchResponse(status: status, headers: headers, body: [], redirectLocation: location))
    }

    static func failure(_ kind: FetchFailure.Kind) -> FetchObservation.Outcome {
        .failure(FetchFailure(kind: kind, message: "simulated \(kind.rawValue)"))
    }

    static let cdnHeaders = [
        HeaderField(name: "Cache-Control", value: "max-age=3600"), HeaderField(name: "Age", value: "600"),
    ]

    static func fetch(
        _ path: String,
        _ outcome: FetchObservation.Outcome,
        userAgent: String = "AASA-Bot/1.0.0",
        certificate: CertificateFacts? = ObservationFixtures.certificate,
        seconds: Double = 0.2,
        address: String = "93.184.215.14",
        viaConnectTo: Bool = false
    ) -> FetchObservation {
        FetchObservation(
            url: "https://\(domain)\(path)", userAgent: userAgent, outcome: outcome, primaryIP: address,
            viaConnectTo: viaConnectTo, totalSeconds: seconds, certificate: certificate)
    }

    /// A healthy domain: the file at `.well-known` for both user agents, root 404, Apple serving the same meaning.
    static func observation(
        wellKnown: FetchObservation.Outcome = json(document),
        plain: FetchObservation.Outcome? = nil,
        root: FetchObservation.Outcome = status(404),
        cdn: FetchObservation.Outcome? = json(documentReserialized, headers: cdnHeaders),
        adjust: (inout DomainObservation) -> Void = { _ in }
    ) -> DomainObservation {
        var observation = DomainObservation(
            domain: domain, startedAt: now, finishedAt: now.addingTimeInterval(0.5),
            wellKnown: fetch("/.well-known/apple-app-site-association", wellKnown),
            wellKnownPlain: fetch(
                "/.well-known/apple-app-site-association", plain ?? wellKnown, userAgent: "aasa-monitor/0.1.0"),
            root: fetch("/apple-app-site-association", root),
            cdn: cdn.map {
                FetchObservation(
                    url: "https://app-site-association.cdn-apple.com/a/v1/\(domain)", userAgent: "aasa-monitor/0.1.0",
                    outcome: $0, totalSeconds: 0.1)
            })
        adjust(&observation)
        return observation
    }

    static func evaluate(
        _ observation: DomainObservation,
        expectations: Expectations = Expectations(),
        staleSince: Date? = nil
    ) -> DomainReport {
        DomainEvaluator.evaluate(
            observation, expectations: expectations, context: EvaluationContext(staleSince: staleSince), now: now)
    }
}

extension DomainReport {
    /// The codes of the findings, in report order.
    var codes: [String] { findings.map(\.code.id) }

    func finding(_ code: String) -> ReportFinding? { findings.first { $0.code.id == code } }
}
