import Foundation
import TestSupport

// engine-benchmark: measures the HTTP engine on a local fleet. See Orchestrator, Serve and Fleet for the modes.
signal(SIGPIPE, SIG_IGN)
let arguments = Array(CommandLine.arguments.dropFirst())
do {
    switch arguments.first {
    case "serve":
        try await Serve.run(protocols: arguments.dropFirst().first == "h1" ? .http1Only : .http2AndHTTP1)
    case "fleet":
        let values = Array(arguments.dropFirst())
        guard (5...6).contains(values.count), let count = Int(values[0]), let port = Int(values[2]),
            let concurrency = Int(values[4]), values.count == 5 || values[5] == "like-check"
        else {
            throw BenchmarkError(
                "usage: engine-benchmark fleet <n> <h2|h1> <port> <ca-file> <concurrency> [like-check]")
        }
        try await Fleet.run(
            count: count, http1: values[1] == "h1", port: port, caFile: values[3], concurrency: concurrency,
            likeCheck: values.count == 6)
    default:
        var options = Orchestrator.Options()
        var remaining = arguments[...]
        while let flag = remaining.popFirst() {
            let value = remaining.popFirst() ?? ""
            switch flag {
            case "--runs": options.runs = Int(value) ?? options.runs
            case "--sizes": options.sizes = value.split(separator: ",").compactMap { Int($0) }
            case "--concurrency": options.concurrency = Int(value) ?? options.concurrency
            case "--baseline": options.baseline = value
            default: throw BenchmarkError("unknown option \(flag)")
            }
        }
        try Orchestrator.run(options)
    }
} catch {
    FileHandle.standardError.write(Data("engine-benchmark: \(error)\n".utf8))
    exit(1)
}
