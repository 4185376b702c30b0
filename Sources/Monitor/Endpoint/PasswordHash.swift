import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Checks a password against a crypt(3) hash with the system's libcrypt (libxcrypt on Debian), which knows
/// bcrypt (`$2y$`, `$2b$`, `$2a$`) and SHA-256/512-crypt (`$5$`, `$6$`), the hashes `htpasswd -B` and
/// `openssl passwd -5` write. No hand-written hashing: the same library verifies Linux login passwords.
enum PasswordHash {
    /// `crypt` returns a static buffer, so calls take turns on this queue; and a slow hash (bcrypt cost 12 takes
    /// ~0.2 s) runs here, not on one of the few threads Swift concurrency shares with the scheduler.
    private static let queue = DispatchQueue(label: "aasa-monitor.password-hash")

    /// A well-formed bcrypt hash no password matches, checked for unknown users so that the answer takes as long
    /// as for a known one.
    static let decoy = "$2b$05$abcdefghijklmnopqrstuu.uB3WshEgTIPpqgviFR99Gbt2uCtVqS"

    /// Whether `password` hashes to `hash` (compared in constant time).
    static func verify(_ password: String, hash: String) async -> Bool {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: verifyNow(password, hash: hash)) }
        }
    }

    private static func verifyNow(_ password: String, hash: String) -> Bool {
        guard let result = crypt(password, hash) else { return false }
        let computed = Array(String(cString: result).utf8)
        let expected = Array(hash.utf8)
        // libxcrypt answers "*0"/"*1" for a hash it cannot read.
        guard computed.first == UInt8(ascii: "$"), computed.count == expected.count else { return false }
        var difference: UInt8 = 0
        for (a, b) in zip(computed, expected) { difference |= a ^ b }
        return difference == 0
    }
}
