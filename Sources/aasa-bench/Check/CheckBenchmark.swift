import BenchmarkSupport
import Foundation
import TestSupport

// aasa-bench check: wall time, client CPU and peak RSS of `aasa-monitor check` for 100, 1,000 and 10,000 fixture
// domains, beside the same figures of the bare client (`aasa-bench engine fleet … like-check`: the HTTP engine alone, fetching
// the same number of URLs, 4 per domain, as a check does: `.well-known` twice, the root and Apple's CDN).
//
// One fixture server (wildcard certificate `*.bench.test`, minted now) in this process plays every origin and Apple's
// CDN (`cdn.bench.test`); the real binary runs in a child process with `--connect-to ::127.0.0.1:PORT`, so the figures
// include process start, engine start, every TLS handshake (one per domain plus the CDN's) and evaluation. CPU and
// peak RSS are the child's own (CPU from `wait4`, peak RSS its `VmHWM` sampled every 10 ms), so the server's work is not counted.
// Usage: aasa-bench check [--runs N] [--sizes 100,1000,10000] [--binary PATH] [--bare PATH|none] [--concurrency N]
//   [--format json|json-lines|text] [--domains arguments|config]
// `--domains config` passes the domains in a configuration file instead of as arguments: swift-argument-parser
// copies its array of values for every positional argument, which costs seconds of CPU at 10,000 domains.
enum CheckBenchmark {
    struct Options {
        var runs = 3
        var sizes = [100, 1_000, 10_000]
        var concurrency = 32
        var format = "json"
        var domainsVia = "arguments"
        var binary = FixtureFleet.siblingMonitor
        /// The bare client: an `aasa-bench` run as `aasa-bench engine fleet … like-check`; nil for none.
        var bare: String? = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
    }

    static func run(_ options: Options) async throws {
        let (runs, sizes, concurrency, format) = (options.runs, options.sizes, options.concurrency, options.format)
        let (domainsVia, binary) = (options.domainsVia, options.binary)
        var bare = options.bare
        if let path = bare, !FileManager.default.isExecutableFile(atPath: path) {
            print("no bare client at \(path) (build aasa-bench, or pass --bare PATH); measuring check alone")
            bare = nil
        }
        // The origins answer 404 on the root path, as most do; the CDN caches for an hour.
        let server = try await FixtureFleet.start(
            suffix: "bench.test", domains: sizes.max() ?? 1, document: FixtureFleet.document(app: "bench"),
            cdnMaxAge: 3600, plainPath: false)
        print("fixture server on 127.0.0.1:\(server.port); binary \(binary); bare client \(bare ?? "none")")
        print(
            "\(runs) runs per size, medians; check --concurrency \(concurrency) --\(format), domains as \(domainsVia); "
                + "bare client at 2× transfers, its engine configured as check's")
        print("client | domains | wall s | CPU s | CPU ms/1000 URLs | peak RSS MB | CPU vs bare | ready | TLS/domain")

        for size in sizes {
            var checks: [ChildRun] = []
            var bares: [ChildRun] = []
            var readyCount = 0
            var handshakes: [Int] = []
            for _ in 0..<runs {
                let formatFlags = format == "text" ? [] : ["--\(format)"]
                let arguments =
                    ["check"] + (try domainArguments(size, via: domainsVia))
                    + [
                        "--cdn-base", "https://cdn.bench.test/a/v1/", "--ca-file", server.caFile, "--connect-to",
                        server.wildcardConnectTo, "--concurrency", String(concurrency), "--timeout", "60s",
                    ] + formatFlags
                let handshakesBefore = server.activity.tlsHandshakesCompleted
                let check = try ChildRun.run(binary, arguments)
                // One per domain and one for the CDN is the floor: more means a connection was closed before its reuse.
                handshakes.append(server.activity.tlsHandshakesCompleted - handshakesBefore)
                checks.append(check)
                readyCount = check.output.components(separatedBy: "\"verdict\":\"ready\"").count - 1
                if check.status != 0 { print("check exit \(check.status): \(notReady(check.output))") }
                if let bare {
                    let fleet = [
                        "engine", "fleet", String(size * 4), "h2", String(server.port), server.caFile,
                        String(concurrency * 2),
                        "like-check",
                    ]
                    bares.append(try ChildRun.run(bare, fleet))
                }
            }
            let check = medians(checks)
            let urls = Double(size * 4)
            var ratio = "—"
            if !bares.isEmpty {
                let baseline = medians(bares)
                ratio = String(format: "%.2f×", check.cpu / baseline.cpu)
                print(
                    String(
                        format: "bare   | %7d | %6.2f | %5.2f | %16.0f | %11.1f", size, baseline.wall, baseline.cpu,
                        baseline.cpu / urls * 1e6, baseline.rss) + " | 1.00×       | —")
            }
            print(
                String(
                    format: "check  | %7d | %6.2f | %5.2f | %16.0f | %11.1f", size, check.wall, check.cpu,
                    check.cpu / urls * 1e6, check.rss)
                    + " | \(ratio.padding(toLength: 11, withPad: " ", startingAt: 0)) | \(readyCount)"
                    + String(format: " | %.2f", Double(handshakes.sorted()[handshakes.count / 2]) / Double(size)))
            fflush(nil)
        }
        await server.shutdown()

    }

    /// The median of each figure over `samples`.
    static func medians(_ samples: [ChildRun]) -> (wall: Double, cpu: Double, rss: Double) {
        (
            samples.map(\.wallSeconds).median ?? .nan, samples.map(\.cpuSeconds).median ?? .nan,
            samples.map { Double($0.maxRSSKilobytes) / 1024 }.median ?? .nan
        )
    }

    /// The domains `d0.bench.test`… as arguments, or as `--config FILE` naming a file that lists them.
    static func domainArguments(_ count: Int, via: String) throws -> [String] {
        let names = (0..<count).map { "d\($0).bench.test" }
        guard via == "config" else { return names }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("aasa-bench-check-\(count).yml").path
        try ("domains:\n" + names.map { "  - name: \($0)\n" }.joined()).write(
            toFile: path, atomically: true, encoding: .utf8)
        return ["--config", path]
    }

    /// The verdicts and codes of the domains that are not ready, counted, from `check --json` output.
    static func notReady(_ output: String) -> String {
        guard let object = try? JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any],
            let domains = object["domains"] as? [[String: Any]]
        else { return "unreadable output" }
        var counts: [String: Int] = [:]
        for domain in domains where domain["verdict"] as? String != "ready" {
            let codes = (domain["findings"] as? [[String: Any]] ?? []).compactMap { finding -> String? in
                guard let code = finding["code"] as? String else { return nil }
                let detail = (finding["detail"] as? [String: Any])?["error_message"] as? String ?? ""
                return detail.isEmpty ? code : "\(code) (\(detail))"
            }
            counts["\(domain["verdict"] ?? "?"): \(codes.joined(separator: ", "))", default: 0] += 1
        }
        return counts.map { "\($0.value)× \($0.key)" }.sorted().joined(separator: "; ")
    }
}
