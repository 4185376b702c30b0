import Foundation

// soak-benchmark: the real daemon (`aasa-monitor run`) for a long run against an in-process fleet whose origins flap
// and whose CDN lags, with a webhook receiver, while it is killed with SIGKILL at random moments, the receiver is
// down for a third of the run and the state directory is full for a minute. It then audits what was journaled
// against what the receiver got, and exits 1 on anything lost, doubled or invented, on a database that fails
// `integrity_check`, on memory that grew, and on any exit of the daemon other than the kills. See SoakRun and
// SoakAudit.
//
// Usage: soak-benchmark [--minutes 30] [--domains 200] [--interval 10] [--binary PATH]
signal(SIGPIPE, SIG_IGN)
do {
    let options = try SoakOptions(parsing: Array(CommandLine.arguments.dropFirst()))
    let outcome = try await SoakRun.run(options)
    print(outcome.report)
    exit(outcome.failures.isEmpty ? 0 : 1)
} catch {
    FileHandle.standardError.write(Data("soak-benchmark: \(error)\n".utf8))
    exit(2)
}
