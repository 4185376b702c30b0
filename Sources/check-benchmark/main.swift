import Foundation
import TestSupport

// check-benchmark: the wall time of `aasa-monitor check` for 1, 100 and 1000 fixture domains.
//
// One fixture server (wildcard certificate `*.bench.test`, minted now) plays every origin and Apple's CDN
// (`cdn.bench.test`); the real binary runs in a child process with `--connect-to ::127.0.0.1:PORT`, so the figures
// include process start, engine start, every TLS handshake (one per domain plus the CDN's) and evaluation.
// Usage: check-benchmark [--runs N] [--sizes 1,100,1000] [--binary PATH]
signal(SIGPIPE, SIG_IGN)

let document = #"{"applinks":{"details":[{"appIDs":["9JA89QQLNQ.com.example.bench"],"components":[{"/":"/buy/*"}]}]}}"#
var runs = 5
var sizes = [1, 100, 1000]
var binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    .appendingPathComponent("aasa-monitor").path
var remaining = CommandLine.arguments.dropFirst()
while let flag = remaining.popFirst() {
    let value = remaining.popFirst() ?? ""
    switch flag {
    case "--runs": runs = Int(value) ?? runs
    case "--sizes": sizes = value.split(separator: ",").compactMap { Int($0) }
    case "--binary": binary = value
    default:
        FileHandle.standardError.write(Data("unknown option \(flag)\n".utf8))
        exit(2)
    }
}

let largest = sizes.max() ?? 1
let routes =
    [
        FixtureRoute(
            "/.well-known/apple-app-site-association", .text(document, headers: [("Content-Type", "application/json")])),
        FixtureRoute("/apple-app-site-association", FixtureResponse(status: 404)),
    ]
    + (0..<largest).map { index in
        FixtureRoute(
            "/a/v1/d\(index).bench.test",
            .text(document, headers: [("Content-Type", "application/json"), ("Cache-Control", "max-age=3600")]))
    }
let server = try await FixtureServer.start(certificate: .valid(for: "*.bench.test"), routes: routes)
print("fixture server on 127.0.0.1:\(server.port); binary \(binary); \(runs) runs per size; concurrency 32")
print("domains | median wall s | min | max | domains/s (median) | verdicts ready")
for size in sizes {
    var seconds: [Double] = []
    var readyCount = 0
    for _ in 0..<runs {
        let arguments =
            ["check"] + (0..<size).map { "d\($0).bench.test" }
            + [
                "--cdn-base", "https://cdn.bench.test/a/v1/", "--ca-file", server.caFile, "--connect-to",
                server.wildcardConnectTo, "--json",
            ]
        let start = ContinuousClock.now
        let completion = try await MonitorBinary.run(
            arguments, environment: nil, timeout: .seconds(600), binary: binary)
        let elapsed = ContinuousClock.now - start
        seconds.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        readyCount = completion.output.components(separatedBy: "\"verdict\":\"ready\"").count - 1
        if completion.status != 0 {
            print("exit \(completion.status): \(notReady(completion.output))")
        }
    }
    seconds.sort()
    let median = seconds[seconds.count / 2]
    print(
        String(
            format: "%7d | %13.3f | %.3f | %.3f | %18.1f | %d", size, median, seconds.first ?? 0, seconds.last ?? 0,
            Double(size) / median, readyCount))
}
await server.shutdown()

/// The verdicts and codes of the domains that are not ready, counted, from `check --json` output.
func notReady(_ output: String) -> String {
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
