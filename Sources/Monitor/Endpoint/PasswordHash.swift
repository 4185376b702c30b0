import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Checks a password against a crypt(3) hash with the system's libcrypt (libxcrypt on Debian), which knows
/// bcrypt (`$2y$`, `$2b$`, `$2a$`) and SHA-256/512-crypt (`$5$`, `$6$`), the hashes `htpasswd -B` and
/// `openssl passwd -5` write. No hand-written hashing: the same library verifies Linux login passwords.
enum PasswordHash {
    /// `crypt` returns a static buffer, so calls take turns.
    private static let lock = Mutex(())

    /// A well-formed bcrypt hash no password matches, checked for unknown users so that the answer takes as long
    /// as for a known one.
    static let decoy = "$2b$05$abcdefghijklmnopqrstuu.uB3WshEgTIPpqgviFR99Gbt2uCtVqS"

    /// Whether `password` hashes to `hash` (compared in constant time).
    static func verify(_ password: String, hash: String) -> Bool {
        let computed: [UInt8]? = lock.withLock { _ in
            guard let result = crypt(password, hash) else { return nil }
            return Array(String(cString: result).utf8)
        }
        guard let computed, computed.first == UInt8(ascii: "$") else { return false }
        let expected = Array(hash.utf8)
        guard computed.count == expected.count else { return false }
        var difference: UInt8 = 0
        for (a, b) in zip(computed, expected) { difference |= a ^ b }
        return difference == 0
    }
}
