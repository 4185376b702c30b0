import Foundation
import HTTPEngine
import MonitorCheck
import MonitorCore
import MonitorDaemon
import TestSupport

/// `aasa-bench engine fleet <n> <h2|h1> <port> <ca-file> <concurrency> [like-check]`: fetches `n` URLs from `n/4`
/// host names with one engine, the way a check cycle does, and prints one `RESULT` line with its own CPU and
/// memory use.
///
/// Each host is fetched 4 times: the first request alone (one TLS handshake per host), then the other three on
/// the warm connection (concurrently over HTTP/2, in sequence over HTTP/1.1, which cannot share a connection).
/// Plain, it is what a bare C libcurl client does (`--baseline`). `like-check` does the libcurl work `check` does
/// and nothing else, for `aasa-bench check`: the first request reads the certificate, the last closes the
/// connection, and the engine is configured as `check`'s (`ProbeSettings.engineConfiguration` for as many domains
/// at once as it fetches hosts at once).
enum EngineFleet {
    static let requestsPerHost = 4

    static func run(count: Int, http1: Bool, port: Int, caFile: String, concurrency: Int, likeCheck: Bool) async throws
    {
        let rule = try ConnectToRule(parsing: "::127.0.0.1:\(port)")
        let hosts = max(1, count / requestsPerHost)
        let before = ResourceUsage.now()
        let started = ContinuousClock.now
        // About `concurrency` transfers in flight: each host task has up to 3 at once after its first.
        let hostWindow = max(1, http1 ? concurrency : concurrency / 2)
        let engine = try CurlEngine(
            configuration: likeCheck
                ? ProbeSettings(version: MonitorVersion.current, concurrency: hostWindow).engineConfiguration
                : .init(maxConcurrentTransfers: concurrency))
        let failures = try await withThrowingTaskGroup(of: Int.self) { group in
            var next = 0
            var failures = 0
            while next < min(hostWindow, hosts) {
                let index = next
                group.addTask {
                    await fetchHost(
                        index, engine: engine, rule: rule, caFile: caFile, http1: http1, likeCheck: likeCheck)
                }
                next += 1
            }
            while let failed = try await group.next() {
                failures += failed
                if next < hosts {
                    let index = next
                    group.addTask {
                        await fetchHost(
                            index, engine: engine, rule: rule, caFile: caFile, http1: http1, likeCheck: likeCheck)
                    }
                    next += 1
                }
            }
            return failures
        }
        await engine.shutdown()
        let elapsed = ContinuousClock.now - started
        let after = ResourceUsage.now()
        let requests = hosts * requestsPerHost
        let cpu = after.cpuSeconds - before.cpuSeconds
        print(
            "RESULT requests=\(requests) failures=\(failures) wall=\(elapsed.inSeconds) cpu=\(cpu) "
                + "maxrss_kb=\(after.maxRSSKilobytes)")
    }

    /// Fetches one host's four URLs; returns how many failed.
    private static func fetchHost(
        _ index: Int, engine: CurlEngine, rule: ConnectToRule, caFile: String, http1: Bool, likeCheck: Bool
    )
        async -> Int
    {
        var request = HTTPRequest(
            url: "https://d\(index).bench.test/apple-app-site-association",
            userAgent: "aasa-monitor-benchmark",
            maxBodyBytes: 131_072,
            connectTo: [rule],
            trust: .only(caFile: caFile),
            httpVersion: http1 ? .http1_1Only : .http2PreferredOverTLS
        )
        request.timeout = .seconds(60)
        var first = request
        first.readsCertificate = likeCheck
        var last = request
        last.closesConnection = likeCheck
        let followUps = Array(repeating: request, count: requestsPerHost - 2) + [last]
        var failures = await fetch(first, engine: engine)
        if http1 {
            for followUp in followUps { failures += await fetch(followUp, engine: engine) }
        } else {
            failures += await withTaskGroup(of: Int.self) { group in
                for followUp in followUps { group.addTask { await fetch(followUp, engine: engine) } }
                return await group.reduce(0, +)
            }
        }
        return failures
    }

    private static func fetch(_ request: HTTPRequest, engine: CurlEngine) async -> Int {
        do {
            return try await engine.perform(request).status == 200 ? 0 : 1
        } catch {
            FileHandle.standardError.write(Data("request failed: \(error)\n".utf8))
            return 1
        }
    }
}
