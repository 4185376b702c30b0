import Foundation
import MonitorCore
import Testing

@testable import Monitor
@testable import MonitorCheck

/// A failed check overlapping a moment this process lacked descriptors is the process's fault, not the domain's,
/// even when the descriptors came back before the check ended.
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

    @Test("a failed check that overlapped a noted fault is discarded; an earlier or a successful one is not")
    func overlapWithNotedFault() throws {
        LocalResources.noteFault(at: Self.faultAt)
        let overlapping = Self.observation(startedAt: Self.faultAt.addingTimeInterval(-5), failed: true)
        let fault = try #require(LocalResources.fault(after: overlapping, now: Self.faultAt.addingTimeInterval(2)))
        #expect(fault.reason.contains("ran short of file descriptors or memory while the check ran"))
        #expect(fault.reason.contains("checked at its next interval"))
        // Over already: the check is discarded, and monitor.resources is not fired again for it.
        #expect(!fault.isCurrent)
        // This test process has descriptors to spare, so only the noted moment can make these faults.
        let successful = Self.observation(startedAt: Self.faultAt.addingTimeInterval(-5), failed: false)
        #expect(LocalResources.fault(after: successful, now: Self.faultAt.addingTimeInterval(2)) == nil)
        let later = Self.observation(startedAt: Date(), failed: true)
        #expect(LocalResources.fault(after: later) == nil)
    }
}
