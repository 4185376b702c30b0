import AASA
import Foundation
import MonitorEvaluation

/// The monitor's own health, seen across domains: trouble of our host is one `monitor.*` alert, not N domain alerts.
///
/// When Apple's CDN cannot be reached from this host, every domain's check says so, and each `cdn.unreachable`
/// "says nothing about the domain". When this host loses its network, every origin fails DNS or connect at once.
/// Both are one condition of the monitor, with its own alert and webhook routing; meanwhile the domains' alerts
/// on the sources that could not be seen are held (neither fired nor resolved).
///
/// The rules, on the checks as they finish:
/// - `monitor.cdn_unreachable` fires when the last 3 checks that asked Apple's CDN could not reach it (whatever the
///   number of domains), and resolves at the first check that reaches it again.
/// - `monitor.network` fires when a domain's latest check failed at `.well-known` and, in the same check, at Apple's
///   CDN host the same way (both DNS, or both connect): a resolver or route of this host failing, whatever the
///   number of domains; failing differently, it takes two domains' latest checks. It also fires when, among the
///   latest check of each domain, at least 3 domains and at least half of them failed DNS or connect at
///   `.well-known`. A name that does not exist (NXDOMAIN) is the domain's own problem and counts for none of this.
///   It resolves when none is so.
/// - `monitor.resources` fires when a check ends while this process lacks descriptors or memory (EMFILE, ENFILE,
///   ENOMEM): that check is discarded, never a domain finding. It resolves at the next check that is recorded.
/// - `monitor.store` fires when the state database could not commit (full disk, unwritable or deleted file, a lock
///   held elsewhere); it is written once the store commits again, together with its resolution.
public struct MonitorConditions: Sendable, Hashable {
    /// The faults the daemon reports itself (the other conditions are judged from checks): a type of their own, so
    /// a domain's code cannot be passed where a condition's is meant (`.cdnUnreachable` is not
    /// `.monitorCDNUnreachable`).
    public enum Fault: Sendable, Hashable, CaseIterable {
        /// `monitor.resources`: this process lacks descriptors or memory.
        case resources
        /// `monitor.store`: the state database cannot commit.
        case store

        public var code: FindingCode {
            switch self {
            case .resources: .monitorResources
            case .store: .monitorStore
            }
        }
    }

    /// An active condition.
    public struct Condition: Sendable, Hashable, Codable {
        /// One of `FindingCode.monitor`.
        public var code: FindingCode
        public var since: Date
        public var message: String

        public init(code: FindingCode, since: Date, message: String) {
            self.code = code
            self.since = since
            self.message = message
        }
    }

    /// A condition starting or ending.
    public enum Transition: Sendable, Hashable {
        case fired(Condition)
        case resolved(Condition, at: Date)

        /// The condition that fired or resolved.
        public var condition: Condition {
            switch self {
            case .fired(let condition), .resolved(let condition, _): condition
            }
        }
    }

    public private(set) var active: [FindingCode: Condition] = [:]
    private var cdnFailuresInARow = 0
    /// Each domain's latest check: whether it failed DNS or connect at `.well-known`.
    private var networkFailing: [String: Bool] = [:]
    /// How many of `networkFailing` are true, kept as they change: counting them at each check cost O(domains) per
    /// check, quadratic over an interval (at 100,000 domains, 10¹⁰ steps per interval).
    private var failingCount = 0
    /// Domains whose latest check failed DNS or connect both at the origin and at Apple's CDN host: whether the two
    /// failed the same way (evidence on its own), by domain.
    private var hostNetworkFailing: [String: Bool] = [:]
    /// How many of `hostNetworkFailing` are true, kept as they change (no scan per check, as `failingCount`).
    private var alikeCount = 0

    /// Checks in a row that could not reach Apple's CDN before `monitor.cdn_unreachable` fires.
    public static let cdnFailuresToFire = 3

    public init(active: [Condition] = []) {
        for condition in active { self.active[condition.code] = condition }
    }

    /// The sources whose domain alerts are held while the active conditions last.
    public var heldSources: Set<FindingSource> {
        var held: Set<FindingSource> = active[.monitorNetwork] != nil ? [.wellKnown, .root] : []
        if active[.monitorCDNUnreachable] != nil { held.insert(.cdn) }
        return held
    }

    /// A fault of this host or process seen at `now`; fires its condition unless active.
    public mutating func fault(_ fault: Fault, message: String, now: Date) -> [Transition] {
        guard active[fault.code] == nil else { return [] }
        let condition = Condition(code: fault.code, since: now, message: message)
        active[fault.code] = condition
        return [.fired(condition)]
    }

    /// The fault is over.
    public mutating func cleared(_ fault: Fault, now: Date) -> [Transition] {
        active.removeValue(forKey: fault.code).map { [.resolved($0, at: now)] } ?? []
    }

    /// Sets one domain's network failure, moving `failingCount` by what changed (no recount).
    private mutating func setNetworkFailing(_ domain: String, _ failing: Bool) {
        let before = networkFailing.updateValue(failing, forKey: domain) ?? false
        failingCount += (failing ? 1 : 0) - (before ? 1 : 0)
    }

    /// Forgets domains that are no longer configured, so a removed dead domain cannot hold `monitor.network` up.
    public mutating func forget(keeping domains: Set<String>) {
        networkFailing = networkFailing.filter { domains.contains($0.key) }
        failingCount = networkFailing.values.count { $0 }
        hostNetworkFailing = hostNetworkFailing.filter { domains.contains($0.key) }
        alikeCount = hostNetworkFailing.values.count { $0 }
    }

    /// Folds one finished (and recorded) check in; `domains` is how many domains are configured.
    public mutating func record(_ report: DomainReport, domains: Int, now: Date) -> [Transition] {
        // A check was probed and recorded: this process had the resources it needed.
        var transitions = cleared(.resources, now: now)
        if report.cdn != nil {
            let unreachable = report.findings.contains { $0.has(.cdnUnreachable) }
            cdnFailuresInARow = unreachable ? cdnFailuresInARow + 1 : 0
            if cdnFailuresInARow >= Self.cdnFailuresToFire, active[.monitorCDNUnreachable] == nil {
                let reason = report.cdn?.errorMessage ?? report.cdn?.error ?? "no answer"
                let condition = Condition(
                    code: .monitorCDNUnreachable, since: now,
                    message: "Apple's CDN cannot be reached from this host (\(reason)): the last \(cdnFailuresInARow) "
                        + "checks got no answer from it. Domain checks go on; their CDN facts and alerts are held "
                        + "until it answers. Check this host's outbound HTTPS, proxy and DNS.")
                active[.monitorCDNUnreachable] = condition
                transitions.append(.fired(condition))
            } else if !unreachable, let condition = active.removeValue(forKey: .monitorCDNUnreachable) {
                transitions.append(.resolved(condition, at: now))
            }
        }
        let originFailure = report.findings.first {
            $0.source == .wellKnown && ($0.has(.originDNS) || $0.has(.originConnect))
                && $0.detail["name_not_found"] != .bool(true)
        }
        setNetworkFailing(report.domain, originFailure != nil)
        // The evaluator blames this host's network (`HostNetwork.failedAlike`) when both failed the same way.
        let alike = originFailure?.causedBy?.code == .monitorNetwork
        let before =
            originFailure != nil && HostNetwork.cdnFailed(report.cdn)
            ? hostNetworkFailing.updateValue(alike, forKey: report.domain)
            : hostNetworkFailing.removeValue(forKey: report.domain)
        let isAlike = hostNetworkFailing[report.domain] ?? false
        alikeCount += (isAlike ? 1 : 0) - (before == true ? 1 : 0)
        let failing = failingCount
        let majority = domains >= 3 && failing >= 3 && Double(failing) >= Double(max(domains, networkFailing.count)) / 2
        let hostEvidence = alikeCount > 0 || hostNetworkFailing.count >= 2
        let outage = majority || hostEvidence
        if outage, active[.monitorNetwork] == nil {
            let evidence =
                majority
                ? "\(failing) of \(domains) domains fail DNS or connect at once"
                : hostNetworkFailing.count >= 2
                    ? "\(hostNetworkFailing.count) domains and Apple's CDN host fail DNS or connect from this host"
                    : "\(report.domain) and Apple's CDN host both fail DNS or connect from this host"
            let condition = Condition(
                code: .monitorNetwork, since: now,
                message: "\(evidence): this host's network is the likelier cause. Origin alerts are held until it "
                    + "recovers. Check this host's DNS resolver, routes and firewall.")
            active[.monitorNetwork] = condition
            transitions.append(.fired(condition))
        } else if !outage, let condition = active.removeValue(forKey: .monitorNetwork) {
            transitions.append(.resolved(condition, at: now))
        }
        return transitions
    }
}

extension MonitorEvent {
    /// `monitor.firing` / `monitor.resolved` for a condition of the monitor itself (domain empty).
    public static func monitor(_ transition: MonitorConditions.Transition, id: String) -> MonitorEvent {
        switch transition {
        case .fired(let condition):
            MonitorEvent(id: id, occurredAt: condition.since, domain: "", payload: .monitorFiring(condition))
        case .resolved(let condition, let at):
            MonitorEvent(
                id: id, occurredAt: at, domain: "",
                payload: .monitorResolved(code: condition.code, since: condition.since))
        }
    }
}
