import AASA
import Foundation
import MonitorCore
import Testing

/// The monitor's own trouble told apart by evidence: `monitor.cdn_unreachable` after 3 checks in a row whatever the
/// number of domains, and `monitor.network` when the origin and Apple's CDN host both fail from this host.
@Suite("monitor conditions from evidence")
struct MonitorHostEvidenceTests {
    typealias F = ObservationFixtures

    static func report(origin: FetchObservation.Outcome, cdn: FetchObservation.Outcome?) -> DomainReport {
        F.evaluate(F.observation(wellKnown: origin, cdn: cdn))
    }

    @Test("monitor.cdn_unreachable fires at the 3rd check in a row that cannot reach the CDN, with 1, 2 or 5 domains")
    func cdnUnreachableThreshold() {
        let unreachable = Self.report(origin: F.json(F.document), cdn: F.failure(.timeout))
        let reachable = Self.report(origin: F.json(F.document), cdn: F.json(F.documentReserialized))
        for domains in [1, 2, 5] {
            var conditions = MonitorConditions()
            #expect(conditions.record(unreachable, domains: domains, now: F.now).isEmpty)
            #expect(conditions.record(unreachable, domains: domains, now: F.now).isEmpty)
            let third = conditions.record(unreachable, domains: domains, now: F.now)
            #expect(third.count == 1, "with \(domains) domains")
            #expect(conditions.active[.monitorCDNUnreachable] != nil)
            // One answer in between starts the count again.
            _ = conditions.record(reachable, domains: domains, now: F.now)
            #expect(conditions.active[.monitorCDNUnreachable] == nil)
            _ = conditions.record(unreachable, domains: domains, now: F.now)
            _ = conditions.record(reachable, domains: domains, now: F.now)
            _ = conditions.record(unreachable, domains: domains, now: F.now)
            #expect(conditions.record(unreachable, domains: domains, now: F.now).isEmpty)
        }
        #expect(MonitorConditions.cdnFailuresToFire == 3)
    }

    @Test("with one domain, origin and CDN both failing DNS is this host's network, not the domain's DNS")
    func hostDNSWithOneDomain() throws {
        let report = Self.report(origin: F.failure(.dns), cdn: F.failure(.dns))
        let dns = try #require(report.finding("origin.dns"))
        #expect(dns.causedBy?.code == .monitorNetwork)
        #expect(!dns.message.contains("publish an A/AAAA record"))
        #expect(dns.message.contains("this host's DNS resolver"))
        #expect(report.verdict == .unknown)
        var conditions = MonitorConditions()
        let fired = conditions.record(report, domains: 1, now: F.now)
        #expect(fired.contains { if case .fired(let c) = $0 { c.code == .monitorNetwork } else { false } })
        #expect(conditions.heldSources == [.wellKnown, .root])
        let recovered = conditions.record(
            Self.report(origin: F.json(F.document), cdn: F.json(F.documentReserialized)), domains: 1, now: F.now)
        #expect(recovered.contains { if case .resolved(let c, _) = $0 { c.code == .monitorNetwork } else { false } })
    }

    @Test("a domain's own DNS failure while Apple's CDN answers is the domain's: origin_broken, no monitor.network")
    func domainDNSIsTheDomains() throws {
        let report = Self.report(origin: F.failure(.dns), cdn: F.status(404))
        let dns = try #require(report.finding("origin.dns"))
        #expect(dns.causedBy == nil)
        #expect(dns.message.contains("publish an A/AAAA record"))
        #expect(report.verdict == .originBroken)
        var conditions = MonitorConditions()
        #expect(conditions.record(report, domains: 1, now: F.now).isEmpty)
    }
}
