import ArgumentParser
import BenchmarkSupport

// aasa-bench daemon: the real daemon (`aasa-monitor run`) against a fleet of HTTPS origins and a fake Apple CDN
// for a fixed time, beside a bare libcurl client doing the same fetches. See DaemonOrchestrator, DaemonRun, NginxFleet
// and BareFleet.
//
// How to rerun issue 24's measure (as root or not; nginx runs as our own child in a temporary directory):
//
//     apt-get install -y nginx-light curl openssl
//     swift build -c release --product aasa-monitor && swift build -c release --product aasa-bench
//     .build/release/aasa-bench daemon --domains 1000 --interval 60s --seconds 150 --runs 3
//     .build/release/aasa-bench daemon --domains 100000 --interval 15m --seconds 300 --runs 1
//
// Per run it prints the daemon's CPU (utime + stime from its start to the end of the run, from /proc) per check
// recorded, the bare client's CPU per domain (4 URLs per domain, 64 domains at a time, all at once) and the
// ratio; the daemon's peak RSS (VmHWM); the checks recorded; the state directory's bytes per check after a clean
// stop (SIGTERM, waited for); the wall time of `aasa-monitor status`, of the page's overview (`GET /`) and of
// `/metrics` with their bytes (each capped at 120 s); and checks and RSS through the run. Then the medians.
//
// Usage: aasa-bench daemon [--server nginx|fixture] [--domains 1000] [--interval 60s] [--seconds 150] [--runs 3]
//                           [--concurrency 32] [--bare-concurrency 64] [--bare-domains N] [--bare-runs 3]
//                           [--reader-cap 120s] [--binary PATH] [--keep-state DIR] [--cluster N]
//                           [--kill-node-at SECONDS]
//   --server nginx    Debian's nginx-light serves `dN.fleet.test` (both AASA paths) and the CDN
//                     `cdn.fleet.test/a/v1/<domain>` on one TLS port, HTTP/2, ECDSA P-256 (the default).
//   --server fixture  the in-process fixture fleet, which records the daemon's requests; the bare client replays
//                     them in a burst and paced as the daemon sent them.
//   --concurrency     the daemon's http.concurrency; --bare-concurrency: domains the bare client fetches at once;
//                     --bare-domains: how many it fetches (default all; its CPU per domain does not grow with N);
//                     --bare-runs: how many times it runs after each daemon run (its median is the limit).
//   --binary          the aasa-monitor to run (default: next to this executable).
//   --keep-state      copies each run's state directory, after its clean stop, into DIR to look into.
//   --cluster N       N daemons on one throwaway PostgreSQL 15 (CPU summed; WAL per check; longest wait of a due
//                     domain); --kill-node-at: kill -9 of the last node that far into the run, then how many
//                     domains were not checked since (run for the interval + 30 s after it to see the failover).
//
//        aasa-bench daemon bare-fleet <domains> <port> <ca-file> <concurrency>                (the nginx limit)
//        aasa-bench daemon bare <url-file> <port> <ca-file> <concurrency> <burst|paced>      (the replay)
struct DaemonCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "daemon",
        abstract: "The real daemon against a fleet, beside a bare libcurl client doing the same fetches.",
        discussion: "Needs nginx-light, curl and openssl for --server nginx (the default); see DaemonCommand.swift.",
        subcommands: [BareFleetCommand.self, BareReplayCommand.self])

    @Option(help: "nginx (nginx-light on one TLS port) or fixture (the in-process fleet, replayed).")
    var server = DaemonOrchestrator.Options.Server.nginx
    @Option var domains = 1_000
    @Option(help: "The daemon's check interval: 60, 60s, 2m or 1h.") var interval = "60s"
    @Option(help: "How long each run lasts: 150, 150s or 5m.") var seconds = "150"
    @Option var runs = 3
    @Option(help: "The daemon's http.concurrency.") var concurrency = 32
    @Option(help: "Domains the bare client fetches at once.") var bareConcurrency = 64
    @Option(help: "Domains the bare client fetches (default all).") var bareDomains: Int?
    @Option(help: "Bare client runs after each daemon run (its median is the limit).") var bareRuns = 3
    @Option(help: "The cap on each reader at the end of a run.") var readerCap = "120s"
    @Option(help: "The aasa-monitor to run (default: next to this executable).") var binary: String?
    @Option(name: .customLong("keep-state"), help: "Copy each run's state directory into DIR.")
    var keepStateDirectory: String?
    @Option(help: "Run this many daemons as one cluster on a throwaway PostgreSQL 15 (0: one daemon on SQLite).")
    var cluster = 0
    @Option(help: "With --cluster 2 or more: kill -9 the last node this far into each run (120, 120s, 2m).")
    var killNodeAt: String?

    func run() async throws {
        typealias Options = DaemonOrchestrator.Options
        var options = Options()
        options.server = server
        options.domains = try Options.positive(String(domains), "--domains")
        options.intervalSeconds = try Options.seconds(interval, "--interval")
        options.seconds = try Options.seconds(seconds, "--seconds")
        options.runs = try Options.positive(String(runs), "--runs")
        options.concurrency = try Options.positive(String(concurrency), "--concurrency")
        options.bareConcurrency = try Options.positive(String(bareConcurrency), "--bare-concurrency")
        options.bareDomains = try bareDomains.map { try Options.positive(String($0), "--bare-domains") }
        options.bareRuns = try Options.positive(String(bareRuns), "--bare-runs")
        options.readerCapSeconds = try Options.seconds(readerCap, "--reader-cap")
        options.keepStateDirectory = keepStateDirectory
        options.clusterNodes = cluster
        if let killNodeAt {
            guard cluster >= 2 else { throw ValidationError("--kill-node-at needs --cluster 2 or more") }
            options.killNodeAt = try Options.seconds(killNodeAt, "--kill-node-at")
        }
        if let binary { options.binary = binary }
        try await runBenchmark("daemon") { try await DaemonOrchestrator.run(options) }
    }
}

extension DaemonOrchestrator.Options.Server: ExpressibleByArgument {}
extension BareReplay.Timing: ExpressibleByArgument {}

/// The nginx limit, run by `DaemonOrchestrator` in a child process (`BareFleet`).
struct BareFleetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bare-fleet", abstract: "The bare client against nginx (run by `daemon`).", shouldDisplay: false)

    @Argument var domains: Int
    @Argument var port: Int
    @Argument var caFile: String
    @Argument var concurrency: Int

    func run() async throws {
        guard domains > 0, concurrency > 0 else {
            throw ValidationError("usage: aasa-bench daemon bare-fleet <domains> <port> <ca-file> <concurrency>")
        }
        try await runBenchmark("daemon") {
            try await BareFleet.run(domains: domains, port: port, caFile: caFile, concurrency: concurrency)
        }
    }
}

/// The replay of the daemon's requests, run by `DaemonOrchestrator` in a child process (`BareReplay`).
struct BareReplayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bare", abstract: "The bare client replaying the daemon's requests (run by `daemon`).",
        shouldDisplay: false)

    @Argument var urlFile: String
    @Argument var port: Int
    @Argument var caFile: String
    @Argument var concurrency: Int
    @Argument var timing: BareReplay.Timing

    func run() async throws {
        try await runBenchmark("daemon") {
            try await BareReplay.run(
                urlFile: urlFile, port: port, caFile: caFile, concurrency: concurrency, timing: timing)
        }
    }
}
