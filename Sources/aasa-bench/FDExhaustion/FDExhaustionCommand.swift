import ArgumentParser

// aasa-bench fd-exhaustion (issue 26 §1): the real daemon (`aasa-monitor run`) under `ulimit -n 96`, three domains
// checked every second, while 120 idle connections to its endpoint are held for 6 s and released, 8 times. The
// daemon must never exit (it once trapped with SIGILL, seen in one run of two); it must still answer /healthz and stop
// with status 0 on SIGTERM. Runs the scenario --runs times (--parallel at once, which also loads the machine) and
// exits 1 if any daemon exited. A crashed run keeps its directory: the daemon's log (with the backtrace of
// SWIFT_BACKTRACE=enable=yes, set unless the environment sets it) and its core file.
//
// Usage: aasa-bench fd-exhaustion [--runs 1] [--parallel 1] [--limit 96] [--connections 120] [--hold 6] [--rounds 8]
//                                  [--domains 3] [--binary PATH]
//
// With --flood N (issue 32 §2): the daemon under `ulimit -n --limit` while N idle connections to its endpoint are
// each reopened as soon as it closes them; --probes times that many `GET /healthz` (one a second, each on a new
// connection) and prints how many were answered within 1 s (the goal: 9 of 10 through 100 connections). Exits 1 when
// fewer than 9 in 10 were.
//
// Usage: aasa-bench fd-exhaustion --flood 100 [--probes 10] [--limit 96] [--domains 3] [--binary PATH]
struct FDExhaustionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fd-exhaustion",
        abstract: "The real daemon under `ulimit -n` while idle connections use up its descriptors, looped.")

    @Option var runs = 1
    @Option(help: "Runs at once.") var parallel = 1
    @Option(help: "The daemon's ulimit -n.") var limit = 96
    @Option(help: "Idle connections held per round.") var connections = 120
    @Option(help: "Seconds they are held.") var hold = 6
    @Option var rounds = 8
    @Option var domains = 3
    @Option(help: "Flood mode: this many idle connections, each reopened as it closes.") var flood: Int?
    @Option(help: "Timed /healthz probes in flood mode.") var probes = 10
    @Option(help: "The aasa-monitor to run (default: next to this executable).") var binary: String?

    func validate() throws {
        let numbers = [runs, parallel, limit, connections, hold, rounds, domains, flood ?? 1, probes]
        guard numbers.allSatisfy({ $0 > 0 }) else { throw ValidationError("options take positive whole numbers") }
    }

    func run() async throws {
        var options = ExhaustionOptions(
            runs: runs, parallel: parallel, limit: limit, connections: connections, holdSeconds: hold, rounds: rounds,
            domains: domains, flood: flood ?? 0, probes: probes)
        if let binary { options.binary = binary }
        try requireMonitor(options.binary)
        try await runBenchmark("fd-exhaustion", status: 2) {
            let failures = try await options.flood > 0 ? FloodRun.run(options) : ExhaustionRun.runAll(options)
            if failures > 0 { throw ExitCode(1) }
        }
    }
}
