import Foundation
import Synchronization

/// What the password check remembers between requests: credentials verified lately, and failures per address and
/// user name. Every method takes the time as a parameter (now by default), so tests play any sequence.
///
/// - A verified `Authorization` header is kept for `verifiedLifetime`, by a keyed hash of the header and of the
///   stored hash it matched (never the header itself), so a scraper sending the same header every 15 s costs one
///   bcrypt check a minute, not four, and a changed password file (a reload) matches nothing kept.
/// - A verified credential is known for `knownLifetime`, by a keyed hash of user, password and stored hash: when
///   its cache entry has expired (or its header is spelled differently), it is checked again, but in the known
///   lane of `PasswordCheckLine`, ahead of unverified attempts, and it is never locked out. Nobody without the
///   password can produce the record's key, and a match only orders the line: the check still decides.
/// - An address and user name with `maximumFailures` failed checks within `failureWindow` are refused without a
///   check until the window has passed since their first failure. Keyed on both (issue 32 §3): 20 wrong guesses
///   for one user from 127.0.0.1 (every local user, or everyone behind one NAT or reverse proxy) no longer lock out
///   another user from that address, and a known credential is never locked out. The hashing work as a whole is
///   bounded by `PasswordCheckLine`, not here.
final class AuthAttempts: Sendable {
    static let verifiedLifetime: Duration = .seconds(60)
    static let knownLifetime: Duration = .seconds(24 * 3_600)
    static let maximumFailures = 20
    static let failureWindow: Duration = .seconds(60)
    /// Bounds on what is kept, whatever clients send: expired entries go first, then the oldest.
    static let maximumEntries = 4_096

    private struct State {
        var verified: [Int: ContinuousClock.Instant] = [:]
        var known: [Int: ContinuousClock.Instant] = [:]
        var failures: [Int: (count: Int, since: ContinuousClock.Instant)] = [:]
    }

    private let state = Mutex(State())
    /// Per process, random: the keyed hash's seed (Swift's `Hasher` is SipHash with a per-process random key).
    private let key = UInt64.random(in: .min ... .max)

    /// The key a verified header is kept under.
    func key(header: String, storedHash: String) -> Int {
        var hasher = Hasher()
        hasher.combine(key)
        hasher.combine(0)
        hasher.combine(header)
        hasher.combine(storedHash)
        return hasher.finalize()
    }

    /// The key a verified credential is known by.
    func credentialKey(user: String, password: String, storedHash: String) -> Int {
        var hasher = Hasher()
        hasher.combine(key)
        hasher.combine(1)
        hasher.combine(user)
        hasher.combine(password)
        hasher.combine(storedHash)
        return hasher.finalize()
    }

    /// The key failures are counted under: the client's address and the user name together.
    func failureKey(client: String, user: String) -> Int {
        var hasher = Hasher()
        hasher.combine(key)
        hasher.combine(2)
        hasher.combine(client)
        hasher.combine(user)
        return hasher.finalize()
    }

    func isVerified(_ key: Int, now: ContinuousClock.Instant = .now) -> Bool {
        state.withLock { Self.isCurrent(&$0.verified, key, now: now) }
    }

    /// Whether the credential verified within `knownLifetime`.
    func isKnown(_ credential: Int, now: ContinuousClock.Instant = .now) -> Bool {
        state.withLock { Self.isCurrent(&$0.known, credential, now: now) }
    }

    /// Remembers a header that verified, and its credential as known.
    func rememberVerified(_ key: Int, credential: Int, now: ContinuousClock.Instant = .now) {
        state.withLock { state in
            Self.makeRoom(in: &state.verified, now: now) { $0 }
            Self.makeRoom(in: &state.known, now: now) { $0 }
            state.verified[key] = now + Self.verifiedLifetime
            state.known[credential] = now + Self.knownLifetime
        }
    }

    /// Whether the address and user name of `failureKey` have used up their failed attempts for now.
    func isLimited(_ failureKey: Int, now: ContinuousClock.Instant = .now) -> Bool {
        state.withLock { state in
            guard let entry = state.failures[failureKey] else { return false }
            if now - entry.since >= Self.failureWindow {
                state.failures[failureKey] = nil
                return false
            }
            return entry.count >= Self.maximumFailures
        }
    }

    func recordFailure(_ failureKey: Int, now: ContinuousClock.Instant = .now) {
        state.withLock { state in
            if state.failures[failureKey] == nil {
                Self.makeRoom(in: &state.failures, now: now) { $0.since + Self.failureWindow }
            }
            var entry = state.failures[failureKey] ?? (0, now)
            if now - entry.since >= Self.failureWindow { entry = (0, now) }
            entry.count += 1
            state.failures[failureKey] = entry
        }
    }

    private static func isCurrent(
        _ entries: inout [Int: ContinuousClock.Instant], _ key: Int, now: ContinuousClock.Instant
    ) -> Bool {
        guard let expiry = entries[key] else { return false }
        if expiry <= now { entries[key] = nil }
        return expiry > now
    }

    /// Below `maximumEntries`: drops the expired entries, then the one that expires first.
    private static func makeRoom<Value>(
        in entries: inout [Int: Value], now: ContinuousClock.Instant, expiry: (Value) -> ContinuousClock.Instant
    ) {
        guard entries.count >= maximumEntries else { return }
        entries = entries.filter { expiry($0.value) > now }
        while entries.count >= maximumEntries,
            let first = entries.min(by: { expiry($0.value) < expiry($1.value) })?.key
        {
            entries[first] = nil
        }
    }
}
