import Foundation
import Synchronization

/// What the password check remembers between requests: credentials verified lately, and failures per client.
///
/// - A verified `Authorization` header is kept for `verifiedLifetime`, by a keyed hash of the header and of the
///   stored hash it matched (never the header itself), so a scraper sending the same header every 15 s costs one
///   bcrypt check a minute, not four, and a changed password file (a reload) matches nothing kept.
/// - A client address with `maximumFailures` failed checks within `failureWindow` is refused without a check
///   until the window has passed since its first failure: a wrong-password flood from one address cannot occupy
///   every core (issue 26 §4).
final class AuthAttempts: Sendable {
    static let verifiedLifetime: Duration = .seconds(60)
    static let maximumFailures = 20
    static let failureWindow: Duration = .seconds(60)
    /// Bounds on what is kept, whatever a client sends: the oldest entries go first.
    static let maximumEntries = 4_096

    private struct State {
        var verified: [Int: ContinuousClock.Instant] = [:]
        var failures: [String: (count: Int, since: ContinuousClock.Instant)] = [:]
    }

    private let state = Mutex(State())
    /// Per process, random: the keyed hash's seed (Swift's `Hasher` is SipHash with a per-process random key).
    private let key = UInt64.random(in: .min ... .max)

    /// The key a verified header is kept under.
    func key(header: String, storedHash: String) -> Int {
        var hasher = Hasher()
        hasher.combine(key)
        hasher.combine(header)
        hasher.combine(storedHash)
        return hasher.finalize()
    }

    func isVerified(_ key: Int, now: ContinuousClock.Instant = .now) -> Bool {
        state.withLock { state in
            guard let expiry = state.verified[key] else { return false }
            if expiry <= now { state.verified[key] = nil }
            return expiry > now
        }
    }

    func rememberVerified(_ key: Int, now: ContinuousClock.Instant = .now) {
        state.withLock { state in
            if state.verified.count >= Self.maximumEntries { state.verified = state.verified.filter { $0.value > now } }
            if state.verified.count >= Self.maximumEntries { state.verified.removeAll() }
            state.verified[key] = now + Self.verifiedLifetime
        }
    }

    /// Whether `client` has used up its failed attempts for now.
    func isLimited(_ client: String, now: ContinuousClock.Instant = .now) -> Bool {
        state.withLock { state in
            guard let entry = state.failures[client] else { return false }
            if now - entry.since >= Self.failureWindow {
                state.failures[client] = nil
                return false
            }
            return entry.count >= Self.maximumFailures
        }
    }

    func recordFailure(_ client: String, now: ContinuousClock.Instant = .now) {
        state.withLock { state in
            if state.failures.count >= Self.maximumEntries {
                state.failures = state.failures.filter { now - $0.value.since < Self.failureWindow }
            }
            if state.failures.count >= Self.maximumEntries { state.failures.removeAll() }
            var entry = state.failures[client] ?? (0, now)
            if now - entry.since >= Self.failureWindow { entry = (0, now) }
            entry.count += 1
            state.failures[client] = entry
        }
    }
}
