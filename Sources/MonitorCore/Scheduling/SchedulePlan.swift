import Foundation
import HeapModule

/// When each domain is checked next: the pure half of the daemon's scheduler.
///
/// - New domains are spread over a start-up window (at most the interval) so a restart does not fire every check
///   at once; a domain checked before continues from its last check.
/// - After a check the next one is due one interval later, ± `jitter` of it, so domains stay spread out.
/// - While Apple's copy is stale or missing, the domain is checked again soon after Apple's cached copy expires
///   (`max-age − Age`), since that is when it can change — never sooner than `minimumGap` after the last check.
/// - A domain in flight is never due: two checks of one domain never overlap.
///
/// The due times are also kept in a min-heap, so the next due check and the earliest wake-up cost O(log n) per
/// check instead of a scan of every domain (at 10,000 domains the scan was most of the scheduler's CPU). A changed
/// due time pushes a new mark and leaves the old one, which is skipped when it reaches the top.
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
    /// Due times of entries not in flight, with stale marks (an entry since started or moved) left to be skipped.
    private var queue = Heap<Mark>()
    /// The earliest moment something becomes due, or `nil` when nothing is scheduled.
    public private(set) var nextWake: Date?

    /// One entry's due time as it was pushed; it is current while the entry is idle with that due time.
    private struct Mark: Comparable, Sendable {
        var due: Date
        var domain: String

        static func < (lhs: Mark, rhs: Mark) -> Bool { (lhs.due, lhs.domain) < (rhs.due, rhs.domain) }
    }
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
        queue = Heap(updated.values.filter { !$0.inFlight }.map { Mark(due: $0.nextDue, domain: $0.domain) })
        settle()
    }

    /// The domains due at `now` and not in flight, earliest first (every one: for inspection, O(n log n)).
    public func due(at now: Date) -> [String] {
        entries.values.filter { !$0.inFlight && $0.nextDue <= now }
            .sorted { ($0.nextDue, $0.domain) < ($1.nextDue, $1.domain) }.map(\.domain)
    }

    /// Starts at most `limit` of the domains due at `now`, earliest first, and returns them.
    public mutating func takeDue(at now: Date, limit: Int) -> [String] {
        var taken: [String] = []
        while taken.count < limit, let top = queue.min, top.due <= now {
            _ = queue.popMin()
            guard isCurrent(top) else { continue }
            entries[top.domain]?.inFlight = true
            taken.append(top.domain)
        }
        settle()
        return taken
    }

    /// Marks a check as started.
    public mutating func started(_ domain: String) {
        entries[domain]?.inFlight = true
        settle()
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
        let next = nextCheck(
            after: now, interval: entry.interval, cdnBehind: cdnBehind, cdnExpiry: cdnExpiry, random: random)
        entry.followsCDNExpiry = next.followsCDNExpiry
        entry.nextDue = next.due
        entries[domain] = entry
        queue.insert(Mark(due: next.due, domain: domain))
        settle()
    }

    /// When a domain checked at `now` is due again: one interval later ± `jitter`, or soon after Apple's cache
    /// expiry while its copy is behind. A cluster's daemons keep no plan of their own domains but ask this when
    /// they commit a check.
    public func nextCheck(
        after now: Date, interval: TimeInterval, cdnBehind: Bool, cdnExpiry: Date?, random: () -> Double
    ) -> (due: Date, followsCDNExpiry: Bool) {
        let wobble = interval * jitter * (random() * 2 - 1)
        let next = now.addingTimeInterval(max(interval * 0.5, interval + wobble))
        if cdnBehind, let cdnExpiry {
            let soonAfterExpiry = max(cdnExpiry.addingTimeInterval(10), now.addingTimeInterval(minimumGap))
            if soonAfterExpiry < next { return (soonAfterExpiry, true) }
        }
        return (next, false)
    }

    private func isCurrent(_ mark: Mark) -> Bool {
        guard let entry = entries[mark.domain] else { return false }
        return !entry.inFlight && entry.nextDue == mark.due
    }

    /// Drops stale marks from the top and reads the earliest current one.
    private mutating func settle() {
        while let top = queue.min, !isCurrent(top) { _ = queue.popMin() }
        nextWake = queue.min?.due
    }
}
