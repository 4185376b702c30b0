import Foundation

// daemon-benchmark: the real daemon (`aasa-monitor run`) against an in-process fixture fleet for a fixed time,
// beside a bare libcurl client replaying the same requests. See Orchestrator, DaemonRun and BareReplay.
//
// Usage: daemon-benchmark [--domains 1000] [--interval 60s] [--seconds 150] [--runs 3] [--concurrency 32]
//                         [--binary PATH]
//        daemon-benchmark bare <url-file> <port> <ca-file> <concurrency>   (the child the orchestrator starts)
signal(SIGPIPE, SIG_IGN)
let arguments = Array(CommandLine.arguments.dropFirst())
do {
    if arguments.first == "bare" {
        let values = Array(arguments.dropFirst())
        guard values.count == 4, let port = Int(values[1]), let concurrency = Int(values[3]) else {
            throw BenchmarkError("usage: daemon-benchmark bare <url-file> <port> <ca-file> <concurrency>")
        }
        try await BareReplay.run(urlFile: values[0], port: port, caFile: values[2], concurrency: concurrency)
    } else {
        try await Orchestrator.run(try Orchestrator.Options(parsing: arguments))
    }
} catch {
    FileHandle.standardError.write(Data("daemon-benchmark: \(error)\n".utf8))
    exit(1)
}
