import Foundation
import MonitorCore
import MonitorEvaluation
import Testing

@testable import MonitorDaemon
@testable import MonitorEndpoint

/// Issue 32 §3, the pure parts: who the line of password checks runs, holds and refuses; the lockout keyed on
/// address and user name; what is known, and until when (time as a parameter); and the start-up check of libcrypt.
@Suite("password check line and attempts")
struct PasswordCheckLineTests {
    @Test("two cores: the open lane runs one check and holds two; the third waiting is refused at once")
    func openLaneIsBounded() {
        var line = PasswordCheckLine(parallelism: 2)
        #expect(line.openParallelism == 1)
        #expect(line.openWaiting == 2)
        #expect(line.arrive(0, lane: .open) == .run(.open))
        #expect(line.arrive(1, lane: .open) == .wait(.open))
        #expect(line.arrive(2, lane: .open) == .wait(.open))
        for ticket in 3..<40 { #expect(line.arrive(ticket, lane: .open) == .refuse) }
        #expect(line.running == 1)
        // A check ends: the next in line starts, in order.
        #expect(line.finish(.open) == [1])
        #expect(line.arrive(40, lane: .open) == .wait(.open))
        #expect(line.finish(.open) == [2])
        #expect(line.finish(.open) == [40])
        #expect(line.finish(.open) == [])
        #expect(line.running == 0)
    }

    @Test("two cores: a known credential runs at once on the core kept for it, whatever the open lane holds")
    func knownLaneHasAReservedCore() {
        var line = PasswordCheckLine(parallelism: 2)
        #expect(line.arrive(0, lane: .open) == .run(.open))
        #expect(line.arrive(1, lane: .open) == .wait(.open))
        #expect(line.arrive(2, lane: .open) == .wait(.open))
        #expect(line.arrive(3, lane: .known) == .run(.known))
        // Both cores busy: the next known credential waits ahead of the open lane.
        #expect(line.arrive(4, lane: .known) == .wait(.known))
        #expect(line.finish(.open) == [4])
        #expect(line.waiting.open == 2)
        #expect(line.finish(.known) == [1])
        #expect(line.finish(.known) == [])
        #expect(line.finish(.open) == [2])
    }

    @Test("one core: no core is kept, but a known credential is next, ahead of every open attempt waiting")
    func oneCore() {
        var line = PasswordCheckLine(parallelism: 1)
        #expect(line.openParallelism == 1)
        #expect(line.arrive(0, lane: .open) == .run(.open))
        #expect(line.arrive(1, lane: .open) == .wait(.open))
        #expect(line.arrive(2, lane: .open) == .wait(.open))
        #expect(line.arrive(3, lane: .open) == .refuse)
        #expect(line.arrive(4, lane: .known) == .wait(.known))
        #expect(line.finish(.open) == [4])
        #expect(line.finish(.known) == [1])
    }

    @Test("a full known lane queues a known attempt as an open one; a full line refuses it")
    func fullKnownLane() {
        var line = PasswordCheckLine(parallelism: 2, knownWaiting: 1)
        #expect(line.arrive(0, lane: .known) == .run(.known))
        #expect(line.arrive(1, lane: .known) == .run(.known))
        #expect(line.arrive(2, lane: .known) == .wait(.known))
        #expect(line.arrive(3, lane: .known) == .wait(.open))
        #expect(line.arrive(4, lane: .known) == .wait(.open))
        #expect(line.arrive(5, lane: .known) == .refuse)
        #expect(line.finish(.known) == [2])
        #expect(line.finish(.known) == [3])
    }

    @Test("the queue for async callers: a refused attempt returns at once, the known one starts first")
    func queue() async {
        let queue = PasswordCheckQueue(parallelism: 1)
        #expect(await queue.enter(.open) == .open)
        let open = [Task { await queue.enter(.open) }, Task { await queue.enter(.open) }]
        let known = Task { await queue.enter(.known) }
        while queue.waitingCount < 3 { await Task.yield() }
        #expect(await queue.enter(.open) == nil)
        queue.leave(.open)
        #expect(await known.value == .known)
        queue.leave(.known)
        queue.leave(.open)
        for task in open { #expect(await task.value == .open) }
        queue.leave(.open)
        #expect(queue.waitingCount == 0)
    }

    @Test("20 failures lock out that address and user name only, until the window has passed")
    func lockoutKeyedOnAddressAndUser() {
        let attempts = AuthAttempts()
        let start = ContinuousClock.now
        let pair = attempts.failureKey(client: "127.0.0.1", user: "other")
        for second in 0..<AuthAttempts.maximumFailures {
            #expect(!attempts.isLimited(pair, now: start + .seconds(second)))
            attempts.recordFailure(pair, now: start + .seconds(second))
        }
        #expect(attempts.isLimited(pair, now: start + .seconds(20)))
        #expect(!attempts.isLimited(attempts.failureKey(client: "127.0.0.1", user: "scraper"), now: start))
        #expect(!attempts.isLimited(attempts.failureKey(client: "127.0.0.2", user: "other"), now: start))
        #expect(attempts.isLimited(pair, now: start + AuthAttempts.failureWindow - .seconds(1)))
        #expect(!attempts.isLimited(pair, now: start + AuthAttempts.failureWindow))
        // "127.0.0.1" + "1x" and "127.0.0.11" + "x" are different pairs.
        #expect(
            attempts.failureKey(client: "127.0.0.1", user: "1x") != attempts.failureKey(client: "127.0.0.11", user: "x")
        )
    }

    @Test("a verified header is cached for a minute; its credential is known for a day, by user, password and hash")
    func verifiedAndKnown() {
        let attempts = AuthAttempts()
        let start = ContinuousClock.now
        let header = attempts.key(header: "Basic c2NyYXBlcjpsZXRtZWlu", storedHash: "$2b$12$h")
        let credential = attempts.credentialKey(user: "scraper", password: "letmein", storedHash: "$2b$12$h")
        #expect(!attempts.isKnown(credential, now: start))
        attempts.rememberVerified(header, credential: credential, now: start)
        #expect(attempts.isVerified(header, now: start + .seconds(59)))
        #expect(!attempts.isVerified(header, now: start + AuthAttempts.verifiedLifetime))
        #expect(attempts.isKnown(credential, now: start + .seconds(3_600)))
        #expect(!attempts.isKnown(credential, now: start + AuthAttempts.knownLifetime))
        // Another password, or the same one against a changed file, is not known.
        #expect(
            !attempts.isKnown(
                attempts.credentialKey(user: "scraper", password: "letmeinx", storedHash: "$2b$12$h"), now: start))
        #expect(
            !attempts.isKnown(
                attempts.credentialKey(user: "scraper", password: "letmein", storedHash: "$2b$12$k"), now: start))
    }

    @Test("failures kept stay bounded; the entry that expires first goes")
    func boundedFailures() {
        let attempts = AuthAttempts()
        let start = ContinuousClock.now
        let first = attempts.failureKey(client: "10.0.0.0", user: "u")
        for _ in 0..<AuthAttempts.maximumFailures { attempts.recordFailure(first, now: start) }
        for index in 1..<AuthAttempts.maximumEntries {
            attempts.recordFailure(attempts.failureKey(client: "10.0.0.\(index)", user: "u"), now: start + .seconds(1))
        }
        #expect(attempts.isLimited(first, now: start + .seconds(2)))
        attempts.recordFailure(attempts.failureKey(client: "10.1.0.0", user: "u"), now: start + .seconds(2))
        #expect(!attempts.isLimited(first, now: start + .seconds(2)))
    }

    static let users = BasicAuthUsers(
        hashes: [
            "scraper": "$2b$12$e8UajMip.B4WfiP1y06fJexuxrbHgDOc/F0lTCdnxN8ke5YC1EBKi",
            "sha": "$5$rounds=200000$0123456789abcdef$Aj1HHvBU3Ab1uDSoDYE89TdS8n0MJGTHV.1ucu64gY6",
        ], file: "/etc/aasa-monitor/htpasswd")

    @Test("start-up: this system's libcrypt checks bcrypt and SHA-crypt")
    func systemLibcrypt() {
        #expect(PasswordHash.unusable(Self.users) == nil)
    }

    @Test("start-up: no crypt_r, or one that cannot read a scheme, is named with the file and never a hash")
    func unusableLibcrypt() throws {
        let missing = try #require(PasswordHash.unusable(Self.users, cryptR: nil))
        #expect(missing.contains("no crypt_r"))
        #expect(missing.contains("/etc/aasa-monitor/htpasswd (endpoint.basic_auth_file)"))
        #expect(missing.contains("install libcrypt1"))
        // "*0" is libxcrypt's answer to a setting it cannot read.
        let failure = UnsafeMutablePointer<CChar>.allocate(capacity: 3)
        defer { failure.deallocate() }
        failure.initialize(from: Array("*0\0".utf8CString), count: 3)
        let noBcrypt = try #require(
            PasswordHash.unusable(Self.users) { _, setting, _ in
                String(cString: setting).hasPrefix("$2") ? failure : nil
            })
        #expect(noBcrypt.contains("cannot check bcrypt hashes ($2b$), which scraper has in /etc/aasa-monitor/htpasswd"))
        #expect(!noBcrypt.contains("$2b$12$"))
        let noSHA = try #require(
            PasswordHash.unusable(BasicAuthUsers(hashes: ["sha": Self.users.hashes["sha"]!], file: "f")) { _, _, _ in
                nil
            })
        #expect(noSHA.contains("SHA-256-crypt hashes ($5$), which sha has in f"))
    }
}
