import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Checks a password against a crypt(3) hash with the system's libcrypt (libxcrypt on Debian), which knows
/// bcrypt (`$2y$`, `$2b$`, `$2a$`) and SHA-256/512-crypt (`$5$`, `$6$`), the hashes `htpasswd -B` and
/// `openssl passwd -5` write. No hand-written hashing: the same library verifies Linux login passwords.
///
/// Checks run on Dispatch's threads, never on the endpoint's event loop or Swift's cooperative pool, and up to one
/// per core at once through `crypt_r` (thread-safe, unlike `crypt`'s shared buffer): one at a time, 40 wrong
/// bcrypt-12 passwords held a legitimate scrape for 8.3 s (issue 26 §4).
enum PasswordHash {
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
    private static let slots = CheckSlots(limit: parallelism)

    /// A well-formed bcrypt hash no password matches, for a file without users (`BasicAuthMiddleware.decoy`).
    static let decoy = "$2b$05$abcdefghijklmnopqrstuu.uB3WshEgTIPpqgviFR99Gbt2uCtVqS"

    /// Whether `password` hashes to `hash` (compared in constant time); `nil` when `admits`, asked once a core is
    /// free, says the check must not run (a client over its failed attempts: the flood that queued behind the
    /// cores is refused as it reaches them, not checked).
    static func verify(_ password: String, hash: String, admits: () -> Bool = { true }) async -> Bool? {
        await slots.acquire()
        defer { slots.release() }
        guard admits() else { return nil }
        return await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                continuation.resume(returning: verifyNow(password, hash: hash))
            }
        }
    }

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

/// A counting semaphore for async callers: at most `limit` holders, the rest wait in order.
final class CheckSlots: Sendable {
    private struct State {
        var free: Int
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state: Mutex<State>

    init(limit: Int) {
        state = Mutex(State(free: limit))
    }

    func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let granted = state.withLock { state in
                if state.free > 0 {
                    state.free -= 1
                    return true
                }
                state.waiting.append(continuation)
                return false
            }
            if granted { continuation.resume() }
        }
    }

    func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if state.waiting.isEmpty {
                state.free += 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}
