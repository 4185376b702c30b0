import MonitorCore
import MonitorEvaluation

/// When `check` shows its progress on standard error, and what it says: pure, so the rule is tested without a
/// terminal.
///
/// Only a person at a terminal is told: a pipe or a file (a CI log, `2> errors`) gets no line that is rewritten in
/// place, and a run that ends within `after` needs none.
package enum CheckProgress {
    /// How long a run goes before its progress shows: a handful of domains end sooner, and are never told.
    package static let after = Duration.seconds(2)

    /// Whether to show the progress line now: standard error is a terminal, the run has lasted `after`, and a
    /// domain is still being checked.
    package static func shows(standardErrorIsTerminal: Bool, elapsed: Duration, checked: Int, total: Int) -> Bool {
        standardErrorIsTerminal && elapsed >= after && checked < total
    }

    /// `checking 20 domains: 12 done (8 s)`.
    package static func line(checked: Int, total: Int, elapsed: Duration) -> String {
        "checking \(total) domain\(total == 1 ? "" : "s"): \(checked) done (\(DurationText.describe(elapsed.seconds)))"
    }
}
