import Foundation

// daemon-benchmark: the real daemon (`aasa-monitor run`) against an in-process fixture fleet for a fixed time,
// beside a bare libcurl client replaying the same requests. See Orchestrator, DaemonRun and BareReplay.
//
// Usage: daemon-benchmark [--domains 1000] [--interval 60s] [--seconds 150] [--runs 3] [--concurrency 32]
//                         [--binary PATH]
//        daemon-benchmark bare <url-file> <port> <ca-file> <concurrency> <burst|paced>   (the orchestrator's child)
signal(SIGPIPE, SIG_IGN)
let arguments = Array(CommandLine.arguments.dropFirst())
do {
    if arguments.first == "bare" {
        let values = Array(arguments.dropFirst())
        guard values.count == 5, let port = Int(values[1]), let concurrency = Int(values[3]),
            let timing = BareReplay.Timing(rawValue: values[4])
        else {
            throw BenchmarkError("usage: daemon-benchmark bare <url-file> <port> <ca-file> <concurrency> <burst|paced>")
        }
        try await BareReplay.run(
            urlFile: values[0], port: port, caFile: values[2], concurrency: concurrency, timing: timing)
    } else {
        try await Orchestrator.run(try Orchestrator.Options(parsing: arguments))
    }
} catch {
    FileHandle.standardError.write(Data("daemon-benchmark: \(error)\n".utf8))
    exit(1)
}
