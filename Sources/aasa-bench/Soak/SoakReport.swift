import BenchmarkSupport
import Foundation

/// The figures of a soak run and the failures that make it exit 1.
enum SoakReport {
    static func outcome(options: SoakOptions, chaos: SoakRun.Chaos, audit: SoakAudit) -> SoakRun.Outcome {
        var failures: [String] = []
        if audit.integrity != ["ok"] { failures.append("integrity_check: \(audit.integrity.prefix(5))") }
        if !audit.lost.isEmpty { failures.append("\(audit.lost.count) lost: \(audit.lost.prefix(5))") }
        if !audit.invented.isEmpty { failures.append("\(audit.invented.count) invented: \(audit.invented.prefix(5))") }
        if !audit.outOfOrder.isEmpty {
            failures.append("\(audit.outOfOrder.count) out of order: \(audit.outOfOrder.prefix(5))")
        }
        if !audit.finalState.isEmpty {
            failures.append("\(audit.finalState.count) final states not delivered: \(audit.finalState.prefix(5))")
        }
        let killsWanted = Int(options.minutes * 100 / 30)
        if chaos.kills < killsWanted { failures.append("\(chaos.kills) kills, fewer than \(killsWanted)") }
        if !chaos.crashes.isEmpty { failures.append("\(chaos.crashes.count) crashes: \(chaos.crashes.prefix(3))") }
        let early = median(window(chaos.rss, around: options.minutes * 60 / 3))
        let late = median(window(chaos.rss, around: options.minutes * 60 - 60))
        let growth = early.map { early in late.map { Double($0) / Double(early) } ?? 1 } ?? 1
        if growth > 1.10 { failures.append(String(format: "RSS grew %.0f%%", (growth - 1) * 100)) }
        let report = """
            soak: \(options.domains) domains every \(options.interval) s for \(options.minutes) min
              kills: \(chaos.kills) (SIGKILL at random, every 5–28 s); crashes other than kills: \(chaos.crashes.count)
              receiver down (503): \(Int(options.outage.lowerBound))–\(Int(options.outage.upperBound)) s; \
            full disk: \(chaos.fullDisk)
              drained in \(Int(chaos.drainSeconds)) s after the chaos
              events journaled: \(audit.journaled); delivered: \(audit.delivered) \
            (\(audit.kinds.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")))
              lost: \(audit.lost.count); invented: \(audit.invented.count); out of order: \(audit.outOfOrder.count); \
            final states not delivered: \(audit.finalState.count); \
            accepted twice (resent after a kill, same webhook-id): \(audit.doubled.count)
              integrity_check: \(audit.integrity.joined(separator: ", "))
              RSS (median VmRSS of the running daemon): \(early.map { "\($0) kB" } ?? "-") at a third of the run, \
            \(late.map { "\($0) kB" } ?? "-") in the last minutes (\(String(format: "%+.1f%%", (growth - 1) * 100)))
            \(failures.isEmpty ? "PASS" : "FAIL:\n  " + failures.joined(separator: "\n  "))
            """
        return SoakRun.Outcome(report: report, failures: failures)
    }

    /// The samples within a minute of `seconds`.
    static func window(_ samples: [(Double, Int)], around seconds: Double) -> [Int] {
        samples.filter { abs($0.0 - seconds) <= 60 }.map(\.1)
    }

    static func median(_ values: [Int]) -> Int? { values.median }
}
