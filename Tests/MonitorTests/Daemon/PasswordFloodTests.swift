import EndToEndSlot
import Foundation
import Synchronization
import TestSupport
import Testing

@testable import MonitorDaemon
@testable import MonitorEndpoint

/// Issue 32 §3 and §9 with the real daemon: wrong passwords from 40 addresses (127.0.0.2 … 127.0.0.41) neither hold a
/// credential that verified before nor get more than a short line of checks; failures lock out an address and
/// user name together, never a credential that verified; and a libcrypt that cannot check the file's hashes stops
/// the daemon at start. Judged by the order of answers, never by a wall clock (the figure is `aasa-bench endpoint`'s).
@Suite("endpoint password flood from many addresses", .serialized, .timeLimit(.minutes(10)), .endToEndSlot)
struct PasswordFloodTests {
    static let domain = "shop.origin.test"
    /// Python's crypt for "letmein", bcrypt cost 12 (about 0.2 s a check): a check lasts long enough that 40
    /// clients all reach the line before the first check ends.
    static let htpasswd = """
        scraper:$2b$12$e8UajMip.B4WfiP1y06fJexuxrbHgDOc/F0lTCdnxN8ke5YC1EBKi
        other:$2b$12$8Tx5uZcHIBaYU7cn2TUFEOdPJTn9yzwxf5vqb7dOc5lQ/2T9Wizda

        """
    static let attackers = (2...41).map { "127.0.0.\($0)" }

    /// Runs `body` with a daemon whose endpoint needs the passwords above, and its port.
    static func withDaemon(_ body: (_ port: Int) async throws -> Void) async throws {
        let fixture = try DaemonFixture()
        try htpasswd.write(toFile: fixture.directory + "/htpasswd", atomically: true, encoding: .utf8)
        try await fixture.withServers(domains: [domain]) { origin, cdn, _, ca in
            try fixture.writeConfiguration(
                domains: [domain], origin: origin, cdn: cdn, caFile: ca, interval: "1h",
                extra: "endpoint:\n  basic_auth_file: htpasswd\n")
            let daemon = try fixture.startDaemon()
            try await daemon.waitForLog("endpoint listening")
            let address = try StatusPageBrowserTests.listenAddress(daemon)
            let port = try #require(Int(address.split(separator: ":").last ?? ""))
            try await body(port)
            daemon.send(SIGTERM)
            #expect(try await daemon.waitForExit() == 0)
        }
    }

    @Test("40 addresses of wrong passwords: a verified credential, uncached, goes ahead; the rest wait in a short line")
    func floodFromManyAddresses() async throws {
        try await Self.withDaemon { port in
            let scraper = { (spaces: Int) in SourceAddressClient.basic("scraper", "letmein", spaces: spaces) }
            #expect(
                await SourceAddressClient.get(port: port, from: "127.0.0.1", authorization: scraper(1)).status == 200)

            // Every attacker sends at once, then again as soon as it is answered (a 429 paces it 0.2 s, so that 40
            // clients spinning on instant refusals do not take the machine's cores from the checks themselves).
            let log = FloodLog()
            let stop = FloodSwitch()
            let start = FloodSwitch()
            let threads = Self.attackers.enumerated().map { index, address in
                let thread = Thread {
                    while !start.isOn { usleep(1_000) }
                    var round = 0
                    while !stop.isOn {
                        let user = (index + round).isMultiple(of: 2) ? "scraper" : "nobody"
                        let answer = SourceAddressClient.getNow(
                            port: port, from: address, authorization: SourceAddressClient.basic(user, "x\(round)"))
                        log.append(answer.status, retryAfter: answer.retryAfter)
                        if answer.status == 429 { usleep(200_000) }
                        if answer.status < 0 { usleep(50_000) }
                        round += 1
                    }
                }
                thread.start()
                return thread
            }
            start.turnOn()
            defer { stop.turnOn() }
            try await eventually("the flood under way: checks answered 401 and attempts refused 429") {
                log.count(401) >= 2 && log.count(429) >= 1
            }

            let line = PasswordCheckLine(parallelism: ProcessInfo.processInfo.activeProcessorCount)
            // Known: this password verified a minute ago; a header spelled differently is not cached, so each of
            // these is checked. In the known lane it starts at once on the core kept for it (or, on one core, next):
            // while it runs, the open core ends at most the check it was running and one more. In one line of
            // every attempt, it would wait behind the whole flood (40 checks) or find the line full (429).
            for spaces in 2...4 {
                let before = log.count(401)
                let answer = await SourceAddressClient.get(
                    port: port, from: "127.0.0.1", authorization: scraper(spaces))
                let during = log.count(401) - before
                print(
                    "verified credential, uncached, under the flood: \(answer.status); \(during) of the flood's checks ended"
                )
                #expect(answer.status == 200, "\(answer)")
                #expect(during <= line.parallelism + 1, "\(during) of the flood's checks ended while it waited")
            }
            // A credential never verified goes to the open lane: answered once the short line ahead of it is done
            // (at most `openWaiting` checks and those running), or refused 429 at once: never after the flood.
            let before = log.count(401)
            let newcomer = await SourceAddressClient.get(
                port: port, from: "127.0.0.1", authorization: SourceAddressClient.basic("other", "letmein"))
            let during = log.count(401) - before
            print("new credential under the flood: \(newcomer.status); \(during) of the flood's checks ended")
            #expect(newcomer.status == 200 || newcomer.status == 429, "\(newcomer)")
            #expect(during <= line.openWaiting + line.parallelism + 1, "\(during) checks ended while it waited")
            stop.turnOn()
            try await eventually("the attackers stopped") { threads.allSatisfy(\.isFinished) }

            let events = log.events
            print(
                "flood from \(Self.attackers.count) addresses: \(log.count(401)) × 401 (checked), "
                    + "\(log.count(429)) × 429 (refused), \(log.count(-1)) × no answer")
            #expect(log.count(-1) == 0, "\(log.errors.prefix(3))")
            // Refused without a check: the first refusal came before the first check ended, so it waited for none.
            let firstRefusal = try #require(events.firstIndex { $0.status == 429 })
            let firstCheck = try #require(events.firstIndex { $0.status == 401 })
            #expect(firstRefusal < firstCheck)
            #expect(events.filter { $0.status == 429 }.allSatisfy { $0.retryAfter == "1" || $0.retryAfter == "60" })
            // Most attempts are refused, not checked: the line holds a few, whatever the number of addresses.
            #expect(log.count(429) > log.count(401))
            #expect(events.allSatisfy { [401, 429].contains($0.status) })
        }
    }

    @Test("wrong guesses lock out an address and user name together, and never a credential that verified")
    func lockoutKeyedOnAddressAndUser() async throws {
        try await Self.withDaemon { port in
            func get(_ from: String, _ user: String, _ password: String, spaces: Int = 1) async -> Int {
                await SourceAddressClient.get(
                    port: port, from: from, authorization: SourceAddressClient.basic(user, password, spaces: spaces)
                ).status
            }
            // 20 wrong guesses for `other` from 127.0.0.1 (any local user, or a reverse proxy) lock out that pair.
            for round in 0..<AuthAttempts.maximumFailures {
                #expect(await get("127.0.0.1", "other", "guess\(round)") == 401)
            }
            let limited = await SourceAddressClient.get(
                port: port, from: "127.0.0.1", authorization: SourceAddressClient.basic("other", "guess"))
            #expect(limited.status == 429)
            #expect(limited.retryAfter == "60")
            // Not the scraper behind the same address, whose credential never verified before.
            #expect(await get("127.0.0.1", "scraper", "letmein") == 200)
            // Nor the same user from another address.
            #expect(await get("127.0.0.2", "other", "guess") == 401)

            // 20 wrong guesses for the scraper's own name from its address: a wrong password is refused without a
            // check, but the scraper's password, which verified, is checked (a header spelled differently is not
            // cached) and passes.
            for round in 0..<AuthAttempts.maximumFailures {
                #expect(await get("127.0.0.1", "scraper", "guess\(round)") == 401)
            }
            #expect(await get("127.0.0.1", "scraper", "guess") == 429)
            #expect(await get("127.0.0.1", "scraper", "letmein", spaces: 2) == 200)
            #expect(await get("127.0.0.1", "scraper", "letmein", spaces: 3) == 200)
        }
    }

    @Test("a libcrypt that cannot check the file's hashes: exit 2 before ready, naming the scheme, user and file")
    func unusableLibcrypt() async throws {
        let fixture = try DaemonFixture()
        try Self.htpasswd.write(toFile: fixture.directory + "/htpasswd", atomically: true, encoding: .utf8)
        // A crypt_r that reads no scheme, as glibc's own libcrypt read no bcrypt: preloaded, it is the one the
        // daemon finds. Without the check, every login would be answered 401 and nothing would say why.
        let shim = fixture.directory + "/crypt-shim"
        try "char *crypt_r(const char *p, const char *s, void *d) { (void)p; (void)s; (void)d; return 0; }\n"
            .write(toFile: shim + ".c", atomically: true, encoding: .utf8)
        let compiler = ["/usr/bin/cc", "/usr/bin/clang", "/opt/swift/usr/bin/clang"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
        let cc = try #require(compiler, "a C compiler (cc or clang) builds the crypt_r shim: apt-get install gcc")
        let build = Process()
        build.executableURL = URL(fileURLWithPath: cc)
        build.arguments = ["-shared", "-fPIC", "-o", shim + ".so", shim + ".c"]
        try build.run()
        build.waitUntilExit()
        #expect(build.terminationStatus == 0)
        try """
        state_dir: \(fixture.stateDirectory)
        interval: 1h
        listen: 127.0.0.1:0
        domains: [never.test]
        endpoint:
          basic_auth_file: htpasswd

        """.write(toFile: fixture.configPath, atomically: true, encoding: .utf8)
        let socket = try NotifySocket.bound()
        let run = try await MonitorBinary.run(
            ["run", "--config", fixture.configPath],
            environment: [
                "LD_PRELOAD": shim + ".so", "NOTIFY_SOCKET": socket.environmentValue, "HOME": fixture.directory,
            ])
        #expect(run.status == 2, "\(run.error)")
        #expect(run.error.contains("crypt_r cannot check bcrypt hashes ($2b$)"), "\(run.error)")
        #expect(run.error.contains("which other has in"), "\(run.error)")
        #expect(run.error.contains("htpasswd (endpoint.basic_auth_file)"), "\(run.error)")
        #expect(!run.error.contains("$2b$12$"), "a hash was shown")
        #expect(!run.error.contains(" ready"))
        var messages: [String] = []
        while let message = socket.receive(within: 200) { messages.append(message) }
        #expect(!messages.contains { $0.contains("READY=1") }, "\(messages)")
    }
}

/// The flood's answers in the order they came, from the attackers' threads.
final class FloodLog: Sendable {
    struct Event: Sendable {
        var status: Int
        var retryAfter: String?
    }

    private let state = Mutex<[Event]>([])

    func append(_ status: Int, retryAfter: String?) {
        state.withLock { $0.append(Event(status: status, retryAfter: retryAfter)) }
    }

    var events: [Event] { state.withLock { $0 } }

    func count(_ status: Int) -> Int { state.withLock { $0.filter { $0.status == status }.count } }

    var errors: [Event] { state.withLock { $0.filter { $0.status < 0 } } }
}

/// A switch the test turns on once and the attackers' threads read.
final class FloodSwitch: Sendable {
    private let value = Atomic(false)

    func turnOn() { value.store(true, ordering: .releasing) }

    var isOn: Bool { value.load(ordering: .acquiring) }
}
