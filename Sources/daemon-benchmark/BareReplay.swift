import Foundation
import HTTPEngine

/// `daemon-benchmark bare <url-file> <port> <ca-file> <concurrency>`: the limit the daemon is compared with.
///
/// Replays, in order, every request the fixture fleet saw from the daemon, with the daemon's HTTP engine (libcurl
/// multi) and nothing else: no evaluation, no database, no scheduler. It runs in its own process so that its
/// `getrusage` is its own, and prints one line: `RESULT requests=… failures=… cpu=… maxrss_kb=…`.
/// Requests to the CDN wait for HTTP/2 multiplexing, as the daemon's CDN requests do; origin requests do not.
enum BareReplay {
    static func run(urlFile: String, port: Int, caFile: String, concurrency: Int) async throws {
        let urls = try String(contentsOfFile: urlFile, encoding: .utf8).split(separator: "\n").map(String.init)
        let rule = try ConnectToRule(parsing: "::127.0.0.1:\(port)")
        let before = OwnUsage.now()
        let engine = try CurlEngine(configuration: .init(maxConcurrentTransfers: concurrency))
        let failures = await withTaskGroup(of: Int.self) { group in
            var next = 0
            var failures = 0
            while next < min(concurrency, urls.count) {
                let url = urls[next]
                group.addTask { await fetch(url, engine: engine, rule: rule, caFile: caFile) }
                next += 1
            }
            while let failed = await group.next() {
                failures += failed
                if next < urls.count {
                    let url = urls[next]
                    group.addTask { await fetch(url, engine: engine, rule: rule, caFile: caFile) }
                    next += 1
                }
            }
            return failures
        }
        await engine.shutdown()
        let after = OwnUsage.now()
        print(
            "RESULT requests=\(urls.count) failures=\(failures) cpu=\(after.cpuSeconds - before.cpuSeconds) "
                + "maxrss_kb=\(after.maxRSSKilobytes)")
        fflush(nil)
    }

    /// 1 when the request failed at the HTTP level (any status, 404 included, is an answer, as for the daemon).
    private static func fetch(_ url: String, engine: CurlEngine, rule: ConnectToRule, caFile: String) async -> Int {
        var request = HTTPRequest(
            url: url, userAgent: "aasa-monitor-benchmark", maxBodyBytes: 131_072, connectTo: [rule],
            trust: .only(caFile: caFile))
        request.timeout = .seconds(10)
        request.connectTimeout = .seconds(10)
        request.waitsForMultiplexing = url.hasPrefix("https://\(Fleet.cdnHost)/")
        do {
            _ = try await engine.perform(request)
            return 0
        } catch {
            FileHandle.standardError.write(Data("bare request \(url) failed: \(error)\n".utf8))
            return 1
        }
    }
}
