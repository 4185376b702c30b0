import Foundation

/// When each domain is checked next: the pure half of the daemon's scheduler.
///
/// - New domains are spread over a start-up window (at most the interval) so a restart does not fire every check
///   at once; a domain checked before continues from its last check.
/// - After a check the next one is due one interval later, ± `jitter` of it, so domains stay spread out.
/// - While Apple's copy is stale or missing, the domain is checked again soon after Apple's cached copy expires
///   (`max-age − Age`), since that is when it can change — never sooner than `minimumGap` after the last check.
/// - A domain in flight is never due: two checks of one domain never overlap.
public struct SchedulePlan: Sendable {
    /// One domain's schedule.
    public struct Entry: Sendable, Hashable {
        public var domain: String
        public var interval: TimeInterval
        public var nextDue: Date
        public var inFlight: Bool
        /// True when `nextDue` was brought forward to Apple's cache expiry.
        public var followsCDNExpiry: Bool
    }

    public private(set) var entries: [String: Entry] = [:]
    /// The fraction of the interval by which a next check may move either way.
    public var jitter: Double
    /// The window over which never-checked domains are spread at start.
    public var startupWindow: TimeInterval
    /// The least time between two checks of a domain, whatever Apple's headers say.
    public var minimumGap: TimeInterval

    public init(jitter: Double = 0.1, startupWindow: TimeInterval = 60, minimumGap: TimeInterval = 30) {
        self.jitter = jitter
        self.startupWindow = startupWindow
        self.minimumGap = minimumGap
    }

    /// Sets the domains to check (at start and on reload). Kept domains keep their schedule (pulled in if the
    /// interval got shorter), new ones are spread over the start-up window or continue from `lastChecks`, removed
    /// ones are dropped (a check in flight finishes and is then forgotten).
    public mutating func setDomains(
        _ domains: [(domain: String, interval: TimeInterval)],
        lastChecks: [String: Date] = [:],
        now: Date,
        random: () -> Double
    ) {
        var updated: [String: Entry] = [:]
        for (domain, interval) in domains {
            if var entry = entries[domain] {
                if entry.interval != interval, !entry.inFlight {
                    entry.nextDue = min(entry.nextDue, now.addingTimeInterval(interval))
                }
                entry.interval = interval
                updated[domain] = entry
                continue
            }
            let spread = min(startupWindow, interval) * random()
            var due = now.addingTimeInterval(spread)
            if let last = lastChecks[domain] { due = max(due, last.addingTimeInterval(interval)) }
            due = min(due, now.addingTimeInterval(interval))
            updated[domain] = Entry(
                domain: domain, interval: interval, nextDue: due, inFlight: false, followsCDNExpiry: false)
        }
        entries = updated
    }

    /// The domains due at `now` and not in flight, earliest first.
    public func due(at now: Date) -> [String] {
        entries.values.filter { !$0.inFlight && $0.nextDue <= now }
            .sorted { ($0.nextDue, $0.domain) < ($1.nextDue, $1.domain) }.map(\.domain)
    }

    /// The earliest moment something becomes due, or `nil` when nothing is scheduled.
    public var nextWake: Date? {
        entries.values.filter { !$0.inFlight }.map(\.nextDue).min()
    }

    /// Marks a check as started.
    public mutating func started(_ domain: String) {
        entries[domain]?.inFlight = true
    }

    /// Records a finished check and schedules the next one.
    ///
    /// `cdnBehind` is true when Apple's copy is stale or missing; `cdnExpiry` is when its cached copy expires.
    public mutating func finished(
        _ domain: String,
        at now: Date,
        cdnBehind: Bool,
        cdnExpiry: Date?,
        random: () -> Double
    ) {
        guard var entry = entries[domain] else { return }
        entry.inFlight = false
        let wobble = entry.interval * jitter * (random() * 2 - 1)
        var next = now.addingTimeInterval(max(entry.interval * 0.5, entry.interval + wobble))
        entry.followsCDNExpiry = false
        if cdnBehind, let cdnExpiry {
            let soonAfterExpiry = max(cdnExpiry.addingTimeInterval(10), now.addingTimeInterval(minimumGap))
            if soonAfterExpiry < next {
                next = soonAfterExpiry
                entry.followsCDNExpiry = true
            }
        }
        entry.nextDue = next
        entries[domain] = entry
    }
}
