import Foundation
import MonitorCore
import MonitorEvaluation
import Testing

@testable import MonitorCheck
@testable import MonitorDaemon

/// What a check tells the core about this process's resources: whether a fetch failed, and the last shortage seen.
/// The core's rule (a failed check overlapping a shortage is discarded) is in DaemonCoreTests (`shortageOver`).
@Suite("local resources")
struct LocalResourcesTests {
    /// Long before any real check of this test run, so a fault noted here cannot touch another test's checks.
    static let faultAt = Date(timeIntervalSince1970: 1_000_000_000)

    static func observation(startedAt: Date, failed: Bool) -> DomainObservation {
        let outcome: FetchObservation.Outcome =
            failed
            ? .failure(FetchFailure(kind: .connect, message: "Could not connect"))
            : .response(FetchResponse(status: 200))
        let fetch = FetchObservation(
            url: "https://a.test/.well-known/apple-app-site-association", userAgent: "AASA-Bot/1.0.0",
            outcome: outcome)
        return DomainObservation(
            domain: "a.test", startedAt: startedAt, finishedAt: startedAt.addingTimeInterval(1), wellKnown: fetch,
            wellKnownPlain: fetch, root: fetch, cdn: fetch)
    }

    @Test("a check with a failed fetch can be this process's fault; the latest shortage noted is kept")
    func failedFetchAndLastShortage() {
        #expect(LocalResources.hasFailedFetch(Self.observation(startedAt: Self.faultAt, failed: true)))
        #expect(!LocalResources.hasFailedFetch(Self.observation(startedAt: Self.faultAt, failed: false)))
        LocalResources.noteFault(at: Self.faultAt)
        LocalResources.noteFault(at: Self.faultAt.addingTimeInterval(-60))
        // Later checks of this test run may note later shortages; never an earlier one than noted here.
        #expect(LocalResources.lastShortage.map { $0 >= Self.faultAt } == true)
    }
}
