import Foundation

// daemon-benchmark: the real daemon (`aasa-monitor run`) against a fleet of HTTPS origins and a fake Apple CDN
// for a fixed time, beside a bare libcurl client doing the same fetches. See Orchestrator, DaemonRun, NginxFleet
// and BareFleet.
//
// How to rerun issue 24's measure (as root or not; nginx runs as our own child in a temporary directory):
//
//     apt-get install -y nginx-light curl openssl
//     swift build -c release --product aasa-monitor && swift build -c release --product daemon-benchmark
//     .build/release/daemon-benchmark --domains 1000 --interval 60s --seconds 150 --runs 3
//     .build/release/daemon-benchmark --domains 100000 --interval 15m --seconds 300 --runs 1
//
// Per run it prints the daemon's CPU (utime + stime from its start to the end of the run, from /proc) per check
// recorded, the bare client's CPU per domain (4 URLs per domain, 64 domains at a time, all at once) and the
// ratio; the daemon's peak RSS (VmHWM); the checks recorded; the state directory's bytes per check after a clean
// stop (SIGTERM, waited for); the wall time of `aasa-monitor status`, of the page's overview (`GET /`) and of
// `/metrics` with their bytes (each capped at 120 s); and checks and RSS through the run. Then the medians.
//
// Usage: daemon-benchmark [--server nginx|fixture] [--domains 1000] [--interval 60s] [--seconds 150] [--runs 3]
//                         [--concurrency 32] [--bare-concurrency 64] [--bare-domains N] [--bare-runs 3]
//                         [--reader-cap 120s] [--binary PATH] [--keep-state DIR]
//   --server nginx    Debian's nginx-light serves `dN.fleet.test` (both AASA paths) and the CDN
//                     `cdn.fleet.test/a/v1/<domain>` on one TLS port, HTTP/2, ECDSA P-256 (the default).
//   --server fixture  the in-process fixture fleet, which records the daemon's requests; the bare client replays
//                     them in a burst and paced as the daemon sent them.
//   --concurrency     the daemon's http.concurrency; --bare-concurrency: domains the bare client fetches at once;
//                     --bare-domains: how many it fetches (default all; its CPU per domain does not grow with N);
//                     --bare-runs: how many times it runs after each daemon run (its median is the limit).
//   --binary          the aasa-monitor to run (default: next to this executable).
//   --keep-state      copies each run's state directory, after its clean stop, into DIR to look into.
//
//        daemon-benchmark bare-fleet <domains> <port> <ca-file> <concurrency>                (the nginx limit)
//        daemon-benchmark bare <url-file> <port> <ca-file> <concurrency> <burst|paced>      (the replay)
signal(SIGPIPE, SIG_IGN)
let arguments = Array(CommandLine.arguments.dropFirst())
do {
    switch arguments.first {
    case "bare":
        let values = Array(arguments.dropFirst())
        guard values.count == 5, let port = Int(values[1]), let concurrency = Int(values[3]),
            let timing = BareReplay.Timing(rawValue: values[4])
        else {
            throw BenchmarkError("usage: daemon-benchmark bare <url-file> <port> <ca-file> <concurrency> <burst|paced>")
        }
        try await BareReplay.run(
            urlFile: values[0], port: port, caFile: values[2], concurrency: concurrency, timing: timing)
    case "bare-fleet":
        let values = Array(arguments.dropFirst())
        guard values.count == 4, let domains = Int(values[0]), let port = Int(values[1]),
            let concurrency = Int(values[3]), domains > 0, concurrency > 0
        else { throw BenchmarkError("usage: daemon-benchmark bare-fleet <domains> <port> <ca-file> <concurrency>") }
        try await BareFleet.run(domains: domains, port: port, caFile: values[2], concurrency: concurrency)
    default:
        try await Orchestrator.run(try Orchestrator.Options(parsing: arguments))
    }
} catch {
    FileHandle.standardError.write(Data("daemon-benchmark: \(error)\n".utf8))
    exit(1)
}
