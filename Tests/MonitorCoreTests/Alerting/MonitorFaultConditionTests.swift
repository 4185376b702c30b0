import Foundation
import MonitorCore
import MonitorEvaluation
import Testing

/// `monitor.resources` and `monitor.store`: faults of this host fire once and resolve once.
@Suite("Monitor fault conditions")
struct MonitorFaultConditionTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test("a fault fires once while active, resolves once; a recorded check resolves monitor.resources")
    func fireAndClear() {
        var conditions = MonitorConditions()
        let fired = conditions.fault(.resources, message: "EMFILE", now: Self.now)
        #expect(fired.count == 1)
        #expect(conditions.fault(.resources, message: "EMFILE", now: Self.now.addingTimeInterval(1)).isEmpty)
        #expect(conditions.fault(.store, message: "disk full", now: Self.now).count == 1)
        let report = DomainReport(
            domain: "example.com", checkedAt: Self.now, durationSeconds: 1, verdict: .ready, findings: [],
            origin: OriginFacts(
                wellKnown: LocationFacts(url: "https://example.com/.well-known/apple-app-site-association"),
                plainStatus: nil, root: nil),
            cdn: nil, diff: nil, documents: [:])
        let transitions = conditions.record(report, domains: 1, now: Self.now.addingTimeInterval(5))
        #expect(
            transitions == [
                .resolved(
                    MonitorConditions.Condition(code: .monitorResources, since: Self.now, message: "EMFILE"),
                    at: Self.now.addingTimeInterval(5))
            ])
        #expect(conditions.active.keys.sorted() == [.monitorStore])
        #expect(conditions.cleared(.store, now: Self.now).count == 1)
        #expect(conditions.cleared(.store, now: Self.now).isEmpty)
    }
}
