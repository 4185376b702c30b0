import BenchmarkSupport
import Foundation
import HTTPEngine
import MonitorCheck
import MonitorCore
import MonitorDaemon
import TestSupport

/// `aasa-bench daemon bare <url-file> <port> <ca-file> <concurrency> <burst|paced>`: the limit the daemon is
/// compared with.
///
/// Replays, in order, every request the fixture fleet saw from the daemon, with the daemon's HTTP engine (libcurl
/// multi, configured as the daemon configures it: the same transfer limit and connection cache, and the root-path
/// request closing its connection as the daemon's does) and nothing else: no evaluation, no database, no
/// scheduler. It runs in its own process so that its `getrusage` is its own, and prints one line:
/// `RESULT requests=… failures=… cpu=… maxrss_kb=…`.
///
/// A line `chain URL` reads the certificate, which libcurl does only on a fresh connection, as the daemon's first
/// origin request of each check does. Every request waits for HTTP/2 multiplexing on an open connection to its
/// host rather than opening another: the daemon fetches an origin's first URL alone and the rest on that warm
/// connection, so it too makes about one TLS handshake per check (the benchmark prints both handshake counts, so a
/// difference shows).
enum BareReplay {
    /// How the replay is timed: `burst` sends each request as soon as a slot is free (the least CPU libcurl needs:
    /// busy threads never sleep); `paced` starts each check at the moment the daemon started it, so the client
    /// wakes as often as the daemon does.
    enum Timing: String { case burst, paced }

    static func run(urlFile: String, port: Int, caFile: String, concurrency: Int, timing: Timing) async throws {
        let rule = try ConnectToRule(parsing: "::127.0.0.1:\(port)")
        let lines = try String(contentsOfFile: urlFile, encoding: .utf8).split(separator: "\n").map(String.init)
        // Built before the clock starts, so the figures are the requests' cost alone.
        let units = Unit.group(try lines.map { line in try request(line, rule: rule, caFile: caFile) })
        let before = ResourceUsage.now()
        let engine = try CurlEngine(
            configuration: ProbeSettings(version: MonitorVersion.current, concurrency: concurrency).engineConfiguration)
        let start = ContinuousClock.now
        let failures = await withTaskGroup(of: Int.self) { group in
            var failures = 0
            var running = 0
            for unit in units {
                if timing == .paced { try? await Task.sleep(until: start + .milliseconds(unit.offset)) }
                while running >= concurrency, let failed = await group.next() {
                    failures += failed
                    running -= 1
                }
                group.addTask { await unit.perform(engine: engine) }
                running += 1
            }
            for await failed in group { failures += failed }
            return failures
        }
        await engine.shutdown()
        let after = ResourceUsage.now()
        print(
            "RESULT requests=\(lines.count) failures=\(failures) cpu=\(after.cpuSeconds - before.cpuSeconds) "
                + "maxrss_kb=\(after.maxRSSKilobytes)")
        fflush(nil)
    }

    /// The daemon's request for one replay line: its timeouts, body limit and trust, and the chain read if marked.
    private static func request(_ line: String, rule: ConnectToRule, caFile: String) throws -> Timed {
        let parts = line.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, let offset = Int(parts[0]) else { throw BenchmarkError("bad replay line: \(line)") }
        let target = String(parts[1])
        let readsChain = target.hasPrefix("chain ")
        let url = readsChain ? String(target.dropFirst("chain ".count)) : target
        var request = HTTPRequest(
            url: url, userAgent: "aasa-monitor-benchmark",
            timeout: .seconds(10), connectTimeout: .seconds(10), maxBodyBytes: 131_072, connectTo: [rule],
            trust: .systemAnd(extraCAFile: caFile), readsCertificate: readsChain,
            describesRejectedCertificate: readsChain,
            waitsForMultiplexing: true)
        // The daemon's root-path request is a domain's last origin request and closes the connection (DomainProbe).
        request.closesConnection = url.hasSuffix("/apple-app-site-association") && !url.contains("/.well-known/")
        return Timed(request: request, offset: offset)
    }

    /// A request and the milliseconds from the start of the run at which the daemon sent it.
    struct Timed {
        var request: HTTPRequest
        var offset: Int
    }

    /// What the daemon does in one go: a check's chain-reading request and, once it has answered, that origin's
    /// follow-ups at once on the warm connection; or a lone request (the CDN's).
    struct Unit: Sendable {
        var first: HTTPRequest
        var followUps: [HTTPRequest] = []
        /// When the daemon sent `first`, in milliseconds from the start of the run.
        var offset: Int

        /// Groups the replay in order: each request to a host follows the latest chain-reading request to it.
        static func group(_ timed: [Timed]) -> [Unit] {
            var units: [Unit] = []
            var openUnit: [String: Int] = [:]
            for (request, offset) in timed.map({ ($0.request, $0.offset) }) {
                let host = request.url.split(separator: "/", omittingEmptySubsequences: true).dropFirst().first
                let key = host.map(String.init) ?? request.url
                if request.readsCertificate {
                    openUnit[key] = units.count
                    units.append(Unit(first: request, offset: offset))
                } else if let index = openUnit[key] {
                    units[index].followUps.append(request)
                } else {
                    units.append(Unit(first: request, offset: offset))
                }
            }
            return units
        }

        /// How many of its requests failed.
        func perform(engine: CurlEngine) async -> Int {
            let failed = await fetch(first, engine: engine)
            return await withTaskGroup(of: Int.self) { group in
                for request in followUps { group.addTask { await fetch(request, engine: engine) } }
                return await group.reduce(failed, +)
            }
        }
    }

    /// 1 when the request failed at the HTTP level (any status, 404 included, is an answer, as for the daemon).
    /// A failure is tried once more, as the daemon tries a CDN request whose shared connection failed.
    private static func fetch(_ request: HTTPRequest, engine: CurlEngine) async -> Int {
        var lastError: (any Error)?
        for _ in 0..<2 {
            do {
                _ = try await engine.perform(request)
                return 0
            } catch {
                lastError = error
            }
        }
        FileHandle.standardError.write(
            Data("bare request \(request.url) failed: \(lastError.map { "\($0)" } ?? "")\n".utf8))
        return 1
    }
}
