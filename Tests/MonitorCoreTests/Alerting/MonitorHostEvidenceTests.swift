import AASA
import Foundation
import MonitorCore
import MonitorEvaluation
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

    static func report(
        _ domain: String, origin: FetchObservation.Outcome, cdn: FetchObservation.Outcome?
    ) -> DomainReport {
        F.evaluate(F.observation(wellKnown: origin, cdn: cdn) { $0.domain = domain })
    }

    static let nxdomain = FetchObservation.Outcome.failure(
        FetchFailure(kind: .dns, message: "Could not resolve host: dead.example", nameNotFound: true))

    static func fires(_ transitions: [MonitorConditions.Transition]) -> Bool {
        transitions.contains { if case .fired(let c) = $0 { c.code == .monitorNetwork } else { false } }
    }

    @Test(
        "a dead domain (NXDOMAIN) while Apple's CDN host blips is the domain's: no monitor.network (issue 35 item 13)")
    func deadDomainDuringCDNBlip() throws {
        let report = Self.report("dead.example", origin: Self.nxdomain, cdn: F.failure(.dns))
        let dns = try #require(report.finding("origin.dns"))
        #expect(dns.causedBy == nil)
        #expect(dns.message.contains("does not exist (NXDOMAIN)"))
        #expect(report.verdict == .originBroken)
        var conditions = MonitorConditions()
        for domains in [1, 3] {
            #expect(!Self.fires(conditions.record(report, domains: domains, now: F.now)))
        }
        #expect(conditions.heldSources.isEmpty)
    }

    @Test("three dead domains of five are not a majority of network failures: NXDOMAIN counts for none")
    func deadDomainsAreNoMajority() {
        var conditions = MonitorConditions()
        for index in 0..<3 {
            let report = Self.report("dead\(index).example", origin: Self.nxdomain, cdn: F.status(404))
            #expect(!Self.fires(conditions.record(report, domains: 5, now: F.now)))
        }
        for index in 0..<3 {
            let report = Self.report("down\(index).example", origin: F.failure(.dns), cdn: F.status(404))
            let fired = Self.fires(conditions.record(report, domains: 5, now: F.now))
            #expect(fired == (index == 2), "the third resolver failure of five domains is the majority")
        }
    }

    @Test("origin and CDN host failing differently: one domain is no evidence, two domains are")
    func differentKindsNeedTwoDomains() throws {
        let first = Self.report("a.example", origin: F.failure(.dns), cdn: F.failure(.connect))
        #expect(try #require(first.finding("origin.dns")).causedBy == nil)
        var conditions = MonitorConditions()
        #expect(!Self.fires(conditions.record(first, domains: 10, now: F.now)))
        let second = Self.report("b.example", origin: F.failure(.connect), cdn: F.failure(.dns))
        #expect(Self.fires(conditions.record(second, domains: 10, now: F.now)))
        let message = try #require(conditions.active[.monitorNetwork]?.message)
        #expect(message.hasPrefix("2 domains and Apple's CDN host fail DNS or connect"), "\(message)")
    }
}
