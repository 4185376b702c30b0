import Foundation

// fd-exhaustion-benchmark (issue 26 §1): the real daemon (`aasa-monitor run`) under `ulimit -n 96`, three domains
// checked every second, while 120 idle connections to its endpoint are held for 6 s and released, 8 times. The
// daemon must never exit (it once trapped with SIGILL, seen in one run of two); it must still answer /healthz and stop
// with status 0 on SIGTERM. Runs the scenario --runs times (--parallel at once, which also loads the machine) and
// exits 1 if any daemon exited. A crashed run keeps its directory: the daemon's log (with the backtrace of
// SWIFT_BACKTRACE=enable=yes, set unless the environment sets it) and its core file.
//
// Usage: fd-exhaustion-benchmark [--runs 1] [--parallel 1] [--limit 96] [--connections 120] [--hold 6] [--rounds 8]
//                                [--domains 3] [--binary PATH]
//
// With --flood N (issue 32 §2): the daemon under `ulimit -n --limit` while N idle connections to its endpoint are
// each reopened as soon as it closes them; --probes times that many `GET /healthz` (one a second, each on a new
// connection) and prints how many were answered within 1 s (the goal: 9 of 10 through 100 connections). Exits 1 when
// fewer than 9 in 10 were.
//
// Usage: fd-exhaustion-benchmark --flood 100 [--probes 10] [--limit 96] [--domains 3] [--binary PATH]
signal(SIGPIPE, SIG_IGN)
do {
    let options = try ExhaustionOptions(parsing: Array(CommandLine.arguments.dropFirst()))
    let failures = try await options.flood > 0 ? FloodRun.run(options) : ExhaustionRun.runAll(options)
    exit(failures == 0 ? 0 : 1)
} catch {
    FileHandle.standardError.write(Data("fd-exhaustion-benchmark: \(error)\n".utf8))
    exit(2)
}
