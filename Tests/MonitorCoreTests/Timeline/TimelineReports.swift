import Foundation
import MonitorCore
import MonitorEvaluation
import Testing

/// Hand-built reports for timeline tests: only what the transition reads.
enum TimelineReports {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    /// The time `minutes` after `start`.
    static func at(_ minutes: Double) -> Date { start.addingTimeInterval(minutes * 60) }

    /// A check at `minutes` after `start`. `cdn: .notAsked` leaves the CDN out; `.answered(hash)` is a 200 (or a 404
    /// when `hash` is nil).
    static func report(
        at minutes: Double,
        origin: String?,
        cdn: CDNAnswer,
        verdict: Verdict = .ready,
        findings: [ReportFinding] = [],
        expectedRefresh: Date? = nil
    ) -> DomainReport {
        let cdnFacts: CDNFacts? =
            switch cdn {
            case .notAsked: nil
            case .unreachable: CDNFacts(url: "https://app-site-association.cdn-apple.com/a/v1/example.com")
            case .serverError:
                CDNFacts(url: "https://app-site-association.cdn-apple.com/a/v1/example.com", status: 503)
            case .answered(let hash):
                CDNFacts(
                    url: "https://app-site-association.cdn-apple.com/a/v1/example.com", status: hash == nil ? 404 : 200,
                    expectedRefresh: expectedRefresh, canonicalHash: hash)
            }
        return DomainReport(
            domain: "example.com",
            checkedAt: at(minutes),
            durationSeconds: 0.5,
            verdict: verdict,
            findings: findings,
            origin: OriginFacts(
                wellKnown: LocationFacts(
                    url: "https://example.com/.well-known/apple-app-site-association",
                    status: origin == nil ? 404 : 200,
                    canonicalHash: origin),
                plainStatus: nil, root: nil),
            cdn: cdnFacts,
            diff: nil,
            documents: [:])
    }

    enum CDNAnswer {
        case notAsked
        case unreachable
        case serverError
        case answered(String?)
    }

    /// Applies the reports in order, returning the final state and every event.
    static func run(_ reports: [DomainReport]) -> (state: DomainState?, events: [TimelineEvent]) {
        var state: DomainState?
        var events: [TimelineEvent] = []
        for report in reports {
            let result = DomainStateTransition.apply(previous: state, report: report)
            state = result.state
            events += result.events
        }
        return (state, events)
    }
}

/// A parameterised timeline case names its reports by check time, verdict and hashes, not by a dump of each report
/// (kilobytes per case in the test log).
extension DomainReport: CustomTestStringConvertible {
    public var testDescription: String {
        "\(verdict.rawValue) at \(RFC3339.string(checkedAt)) origin \(originHash ?? "-") cdn \(cdnHash ?? "-")"
    }
}
