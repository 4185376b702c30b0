import Dispatch
import Foundation
import MonitorCore
import MonitorEvaluation

#if canImport(Glibc)
    import Glibc
#endif

/// Checks a password against a crypt(3) hash with the system's libcrypt (libxcrypt on Debian), which knows
/// bcrypt (`$2y$`, `$2b$`, `$2a$`) and SHA-256/512-crypt (`$5$`, `$6$`), the hashes `htpasswd -B` and
/// `openssl passwd -5` write. No hand-written hashing: the same library verifies Linux login passwords.
///
/// Checks run on Dispatch's threads, never on the endpoint's event loop or Swift's cooperative pool, through
/// `crypt_r` (thread-safe, unlike `crypt`'s shared buffer), admitted by `PasswordCheckQueue`: one per core, one
/// core kept for credentials that verified lately, and a short line for the rest (issue 32 §3). One at a time,
/// 40 wrong bcrypt-12 passwords held a legitimate scrape for 8.3 s (issue 26 §4); one per core in a line without
/// bound, from 40 addresses, 6.9–11.5 s.
///
/// A libcrypt without `crypt_r`, or one that cannot read a scheme of the file (glibc's own libcrypt knew no
/// bcrypt), would answer every login 401 without a word: `unusable(_:)` names it, and the daemon refuses to start.
package enum PasswordHash {
    /// `crypt_r(phrase, setting, data)`, looked up at run time: Swift's Glibc module does not import <crypt.h>.
    private typealias CryptR =
        @convention(c) (UnsafePointer<CChar>, UnsafePointer<CChar>, UnsafeMutableRawPointer) -> UnsafeMutablePointer<
            CChar
        >?

    private static let cryptR: CryptR? = {
        // RTLD_DEFAULT (a null handle): the binary links libcrypt (Package.swift).
        guard let symbol = dlsym(nil, "crypt_r") else { return nil }
        return unsafeBitCast(symbol, to: CryptR.self)
    }()

    /// `sizeof(struct crypt_data)` in libxcrypt (32 KiB), rounded up for any other libcrypt.
    private static let cryptDataBytes = 1 << 17

    /// How many checks run at once: one per core.
    static let parallelism = max(1, ProcessInfo.processInfo.activeProcessorCount)
    private static let line = PasswordCheckQueue(parallelism: parallelism)

    /// What became of an attempt.
    enum Outcome: Sendable, Hashable {
        /// The check ran: whether the password matched.
        case checked(Bool)
        /// The line was full: refused at once, without a check.
        case busy
        /// `admits` said no when its turn came (the client went over its failed attempts meanwhile).
        case limited
    }

    /// A well-formed bcrypt hash no password matches, for a file without users (`BasicAuthMiddleware.decoy`).
    static let decoy = "$2b$05$abcdefghijklmnopqrstuu.uB3WshEgTIPpqgviFR99Gbt2uCtVqS"

    /// Whether `password` hashes to `hash` (compared in constant time), checked in `lane` of the line; `admits`,
    /// asked once the check may run, can still refuse it (a client that went over its failed attempts while it
    /// waited is refused as it reaches a core, not checked).
    static func verify(
        _ password: String, hash: String, lane: PasswordCheckLine.Lane = .open, admits: () -> Bool = { true }
    ) async -> Outcome {
        guard let running = await line.enter(lane) else { return .busy }
        defer { line.leave(running) }
        guard admits() else { return .limited }
        return .checked(
            await withCheckedContinuation { continuation in
                DispatchQueue.global(qos: .userInitiated).async {
                    continuation.resume(returning: verifyNow(password, hash: hash))
                }
            })
    }

    /// Why the users' hashes cannot be checked on this system, or nil: no `crypt_r` at all, or one that cannot
    /// read a scheme the file uses. Costs one cheap hash per scheme (bcrypt cost 4, SHA-crypt 1,000 rounds).
    package static func unusable(_ users: BasicAuthUsers) -> String? {
        unusable(users, cryptR: cryptR.map { function in { function($0, $1, $2) } })
    }

    /// `unusable(_:)` with the `crypt_r` to try (nil: the system has none), for tests.
    static func unusable(
        _ users: BasicAuthUsers,
        cryptR: ((UnsafePointer<CChar>, UnsafePointer<CChar>, UnsafeMutableRawPointer) -> UnsafeMutablePointer<CChar>?)?
    ) -> String? {
        guard let cryptR else {
            return "this system's libcrypt has no crypt_r, so no password of \(users.file) (endpoint.basic_auth_file) "
                + "could be checked and every login would be refused; install libcrypt1 (libxcrypt), or remove "
                + "endpoint.basic_auth_file"
        }
        for (scheme, user) in schemes(users) {
            guard let setting = cheapSettings[scheme] else { continue }
            let data = UnsafeMutableRawPointer.allocate(byteCount: cryptDataBytes, alignment: 16)
            data.initializeMemory(as: UInt8.self, repeating: 0, count: cryptDataBytes)
            defer { data.deallocate() }
            let result = cryptR("self-test", setting, data).map { String(cString: $0) }
            guard let result, result.hasPrefix(scheme), result.count > setting.count else {
                return "this system's crypt_r cannot check \(schemeNames[scheme] ?? scheme) hashes (\(scheme)), "
                    + "which \(user) has in \(users.file) (endpoint.basic_auth_file), so every such login would be "
                    + "refused; install libcrypt1 (libxcrypt), or recreate the entries with `htpasswd -B`"
            }
        }
        return nil
    }

    /// Each scheme prefix the file uses, with the first user (by name) whose hash has it.
    private static func schemes(_ users: BasicAuthUsers) -> [(String, String)] {
        var found: [String: String] = [:]
        for (user, hash) in users.hashes.sorted(by: { $0.key < $1.key }) {
            guard let scheme = BasicAuthUsers.acceptedPrefixes.first(where: { hash.hasPrefix($0) }) else { continue }
            if found[scheme] == nil { found[scheme] = user }
        }
        return found.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// A setting of each accepted scheme at its lowest cost: what the self-test hashes.
    private static let cheapSettings = [
        "$2y$": "$2y$04$abcdefghijklmnopqrstuu", "$2b$": "$2b$04$abcdefghijklmnopqrstuu",
        "$2a$": "$2a$04$abcdefghijklmnopqrstuu", "$5$": "$5$rounds=1000$abcdefghijklmnop$",
        "$6$": "$6$rounds=1000$abcdefghijklmnop$",
    ]

    private static let schemeNames = [
        "$2y$": "bcrypt", "$2b$": "bcrypt", "$2a$": "bcrypt", "$5$": "SHA-256-crypt", "$6$": "SHA-512-crypt",
    ]

    private static func verifyNow(_ password: String, hash: String) -> Bool {
        // A NUL would end the C string: "secret\0junk" would be checked as "secret" (issue 26 §4).
        guard !password.utf8.contains(0), let cryptR else { return false }
        let data = UnsafeMutableRawPointer.allocate(byteCount: cryptDataBytes, alignment: 16)
        data.initializeMemory(as: UInt8.self, repeating: 0, count: cryptDataBytes)
        defer { data.deallocate() }
        guard let result = cryptR(password, hash, data) else { return false }
        let computed = Array(String(cString: result).utf8)
        let expected = Array(hash.utf8)
        // libxcrypt answers "*0"/"*1" for a hash it cannot read.
        guard computed.first == UInt8(ascii: "$"), computed.count == expected.count else { return false }
        var difference: UInt8 = 0
        for (a, b) in zip(computed, expected) { difference |= a ^ b }
        return difference == 0
    }
}
