import ArgumentParser

// aasa-bench soak: the real daemon (`aasa-monitor run`) for a long run against an in-process fleet whose origins flap
// and whose CDN lags, with a webhook receiver, while it is killed with SIGKILL at random moments, the receiver is
// down for a third of the run and the state directory is full for a minute. It then audits what was journaled
// against what the receiver got, and exits 1 on anything lost, doubled or invented, on a database that fails
// `integrity_check`, on memory that grew, and on any exit of the daemon other than the kills. See SoakRun and
// SoakAudit.
//
// Usage: aasa-bench soak [--minutes 30] [--domains 200] [--interval 10] [--binary PATH]
struct SoakCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "soak", abstract: "The real daemon under kills, a receiver outage and a full disk, audited.")

    @Option(help: "How long the run lasts.") var minutes = 30.0
    @Option var domains = 200
    @Option(help: "The daemon's check interval in seconds.") var interval = 10
    @Option(help: "The aasa-monitor to run (default: next to this executable).") var binary: String?

    func validate() throws {
        guard minutes > 0, domains > 0, interval > 0 else {
            throw ValidationError("--minutes, --domains and --interval take positive numbers")
        }
        if let binary { try requireMonitor(binary) }
    }

    func run() async throws {
        var options = SoakOptions(minutes: minutes, domains: domains, interval: interval)
        if let binary { options.binary = binary }
        try requireMonitor(options.binary)
        try await runBenchmark("soak", status: 2) {
            let outcome = try await SoakRun.run(options)
            print(outcome.report)
            if !outcome.failures.isEmpty { throw ExitCode(1) }
        }
    }
}
