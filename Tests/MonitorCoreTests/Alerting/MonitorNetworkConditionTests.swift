import AASA
import Foundation
import MonitorCore
import MonitorEvaluation
import Testing

/// `monitor.network` from the operator's side: it follows the configured domains, not every domain ever seen.
@Suite("monitor.network")
struct MonitorNetworkConditionTests {
    typealias F = ObservationFixtures

    static func report(_ domain: String, failing: Bool) -> DomainReport {
        var observation = F.observation(wellKnown: failing ? F.failure(.dns) : F.json(F.document))
        observation.domain = domain
        return F.evaluate(observation)
    }

    @Test("removing the dead domains ends monitor.network at the next check")
    func forgetsRemovedDomains() {
        var conditions = MonitorConditions()
        let dead = ["d1.test", "d2.test", "d3.test"]
        let alive = ["a1.test", "a2.test", "a3.test"]
        for domain in alive { _ = conditions.record(Self.report(domain, failing: false), domains: 6, now: F.now) }
        var fired: [MonitorConditions.Transition] = []
        for domain in dead { fired += conditions.record(Self.report(domain, failing: true), domains: 6, now: F.now) }
        #expect(fired.count == 1)
        #expect(conditions.heldSources == [.wellKnown, .root])
        conditions.forget(keeping: Set(alive))
        let after = conditions.record(Self.report("a1.test", failing: false), domains: 3, now: F.now)
        #expect(after.count == 1)
        #expect(conditions.heldSources.isEmpty)
    }
}
