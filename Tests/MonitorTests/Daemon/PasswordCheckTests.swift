import EndToEndSlot
import Foundation
import HTTPEngine
import Synchronization
import TestSupport
import Testing

/// Issue 26 §4 with the real daemon: a password followed by NUL and junk is refused; an unknown user costs what a
/// known user of a scheme costs; a wrong-password flood neither stalls `/healthz` nor a verified scraper, and is
/// cut off per client address and user name (issue 32 §3; many addresses: `PasswordFloodTests`).
@Suite("endpoint password checks", .serialized, .timeLimit(.minutes(10)), .endToEndSlot)
struct PasswordCheckTests {
    static let domain = "shop.origin.test"
    /// Python's crypt for "letmein": bcrypt cost 10 and SHA-256-crypt with 200,000 rounds, two users each.
    static let htpasswd = """
        bee:$2b$10$1.x7ZNqIoaN/UkcZO7u2ReLbGU2VG.zAIuV2av0uijM95VRtE7rBG
        bea:$2b$10$GbHqV9jAuehqe/I5OOiiSOHqKX/wEBfgwVYRVHXU9UhDEfSFcIpRq
        sha:$5$rounds=200000$0123456789abcdef$Aj1HHvBU3Ab1uDSoDYE89TdS8n0MJGTHV.1ucu64gY6
        shb:$5$rounds=200000$fedcba9876543210$VHIk/4go0Fv46xs3qF6m8qCA.C7ptbYQC.GWpo70l7D

        """

    /// Runs `body` with a daemon whose endpoint needs the passwords above, a request function and the daemon's pid.
    static func withDaemon(
        _ body: (_ request: @escaping @Sendable (String, String?, String) async throws -> Int, _ pid: Int32)
            async throws -> Void
    ) async throws {
        let fixture = try DaemonFixture()
        try htpasswd.write(toFile: fixture.directory + "/htpasswd", atomically: true, encoding: .utf8)
        try await fixture.withServers(domains: [domain]) { origin, cdn, _, ca in
            // One check an hour, and its first done before the body runs: the CPU the timing test compares is then
            // the password checks', not a background check's that happened to fall in one user's requests.
            try fixture.writeConfiguration(
                domains: [domain], origin: origin, cdn: cdn, caFile: ca, interval: "1h",
                extra: "endpoint:\n  basic_auth_file: htpasswd\n")
            let daemon = try fixture.startDaemon()
            try await daemon.waitForLog("endpoint listening")
            try await eventually("the first check", log: daemon) { try await DaemonTests.checks(fixture).count >= 1 }
            let base = "http://\(try StatusPageBrowserTests.listenAddress(daemon))"
            try await withCurlEngine { engine in
                let request: @Sendable (String, String?, String) async throws -> Int = { path, user, password in
                    var headers: HTTPHeaders = [:]
                    if let user {
                        headers = ["Authorization": "Basic \(Data("\(user):\(password)".utf8).base64EncodedString())"]
                    }
                    return try await engine.perform(
                        HTTPRequest(url: base + path, headers: headers, timeout: .seconds(30), httpsOnly: false)
                    ).status
                }
                try await body(request, daemon.pid)
            }
            daemon.send(SIGTERM)
            #expect(try await daemon.waitForExit() == 0)
        }
    }

    /// The daemon's CPU time so far (utime + stime from /proc, in clock ticks of 10 ms).
    static func cpuTicks(_ pid: Int32) -> Int {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let end = stat.lastIndex(of: ")")
        else { return 0 }
        let fields = stat[stat.index(after: end)...].split(separator: " ")
        // After the command: state is field 3, utime 14 and stime 15 (1-based, as proc(5) counts).
        return (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0)
    }

    /// What a user's wrong password costs the daemon: its CPU time, which other tests loading the 2 cores do not
    /// change as they change the answer's latency (a wall-clock comparison failed at 27–30% in loaded full runs).
    @Test("an unknown user costs what a known user of a scheme costs (within a third), for bcrypt and SHA-256-crypt")
    func unknownUserTiming() async throws {
        try await Self.withDaemon { request, pid in
            var ticks: [String: Int] = [:]
            // 5 rounds of 4 users: 20 wrong passwords, the most the per-address limit checks before it answers 429.
            for _ in 0..<5 {
                for user in ["bea", "shb", "nobody", "admin"] {
                    let before = Self.cpuTicks(pid)
                    let status = try await request("/status", user, "wrong")
                    ticks[user, default: 0] += Self.cpuTicks(pid) - before
                    #expect(status == 401)
                }
            }
            let known = [Double(ticks["bea"] ?? 0), Double(ticks["shb"] ?? 0)]
            print("password check, daemon CPU ticks for 5 wrong passwords each: \(ticks)")
            // Five checks of either scheme cost a quarter of a second or more: a measure that saw nothing fails here.
            #expect(known.allSatisfy { $0 >= 10 }, "\(ticks)")
            for name in ["nobody", "admin"] {
                let cost = Double(ticks[name] ?? 0)
                let closest = known.map { abs(($0 - cost) / max($0, 1)) }.min() ?? 1
                // A third: the daemon's own background work lands in whichever request it overlaps (22% once in a
                // loaded full run); an unknown user answered without a hash costs a small fraction of either.
                #expect(closest < 0.34, "\(name): \(cost) ticks against \(known)")
            }
        }
    }

    @Test("NUL and junk after the password is refused; a flood of wrong passwords is cut off per address and user")
    func nulAndFlood() async throws {
        try await Self.withDaemon { request, _ in
            #expect(try await request("/status", "bee", "letmein") == 200)
            #expect(try await request("/status", "bee", "letmein\u{0}junk") == 401)
            #expect(try await request("/status", "sha", "letmein\u{0}") == 401)

            // 40 wrong passwords at once, while a probe and the verified scraper keep asking.
            let started = ContinuousClock.now
            let floodAnswered = FloodCount()
            let answered = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<40 {
                    group.addTask {
                        let status = try await request(
                            "/metrics", index.isMultiple(of: 2) ? "bee" : "nobody", "x\(index)")
                        floodAnswered.add()
                        return status
                    }
                }
                // Not stalled is judged by order, not by a wall clock (issue 31): once the flood is under way (one
                // answer in), a few of its checks run or wait in the short line (`PasswordCheckLine`) and the rest
                // are refused at once. /healthz needs no check, and a verified header skips it (`AuthAttempts`):
                // both are answered before the flood is. A probe or scrape queued behind the checks would be
                // answered after all 40.
                try await eventually("the flood under way") { floodAnswered.value >= 1 }
                let probe = ContinuousClock.now
                #expect(try await request("/healthz", nil, "") == 200)
                let healthz = ContinuousClock.now - probe
                #expect(floodAnswered.value < 40, "/healthz answered after the whole flood")
                let scrape = ContinuousClock.now
                #expect(try await request("/metrics", "bee", "letmein") == 200)
                let scraped = ContinuousClock.now - scrape
                #expect(floodAnswered.value < 40, "the verified scrape answered after the whole flood")
                print("during a 40-request wrong-password flood: /healthz \(healthz), verified scrape \(scraped)")
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            let flood = ContinuousClock.now - started
            print(
                "flood answered in \(flood): \(answered.filter { $0 == 401 }.count) × 401, \(answered.filter { $0 == 429 }.count) × 429"
            )
            // Checked (401) or refused (429): 20 failures a minute per address and user, and a short line of checks
            // (how many of the 40 are refused depends on how many arrive together: `PasswordFloodTests` counts).
            #expect(answered.allSatisfy { $0 == 401 || $0 == 429 })
            // A verified header still passes without a check, and the flood's guesses for `bee` and `nobody` lock
            // out no other user of the address.
            #expect(try await request("/status", "bee", "letmein") == 200)
            #expect(try await request("/status", "bea", "letmein") == 200)
        }
    }
}

/// How many of the flood's requests have been answered, counted from the tasks that sent them.
final class FloodCount: Sendable {
    private let count = Mutex(0)

    func add() { count.withLock { $0 += 1 } }

    var value: Int { count.withLock { $0 } }
}
