import Foundation
import MonitorCore
import Synchronization

/// Each domain's last `domain_state` value with the stored bytes it was read from or written as.
///
/// A check reads its domain's state and writes it back changed; the next check decoded (inflate and JSON) the very
/// bytes the last one wrote: ~1.4% of the daemon's CPU per check. A read whose bytes are those remembered takes the
/// remembered value; any other bytes (a write that was rolled back, a database restored from a backup) are decoded.
/// So the memo can miss but never return another state. (The value is the one the bytes were made from; decoding
/// them can differ in a date's last bit, below a microsecond, because JSON holds seconds since 1970 and `Date`
/// counts from 2001: nothing the monitor reports resolves that.) It holds one entry per domain; past
/// `maximumDomains` (domains removed by reloads pile up) it starts over.
final class StateMemo: Sendable {
    let maximumDomains: Int
    private let entries = Mutex<[String: Entry]>([:])

    private struct Entry {
        var stored: Data
        var state: DomainState
    }

    init(maximumDomains: Int = 100_000) {
        self.maximumDomains = max(1, maximumDomains)
    }

    /// The state stored as `stored` for `domain`, when these are the bytes remembered for it.
    func state(of domain: String, stored: Data) -> DomainState? {
        entries.withLock { entries in
            guard let entry = entries[domain], entry.stored == stored else { return nil }
            return entry.state
        }
    }

    /// Remembers that `state` is stored as `stored`.
    func remember(_ state: DomainState, stored: Data) {
        entries.withLock { entries in
            if entries.count >= maximumDomains, entries[state.domain] == nil { entries.removeAll() }
            entries[state.domain] = Entry(stored: stored, state: state)
        }
    }
}
