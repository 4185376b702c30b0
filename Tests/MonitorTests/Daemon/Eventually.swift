import Foundation
import TestSupport

/// Waits until `condition` holds, checking every 50 ms; throws after `timeout` with `description`, the last error
/// the condition threw (a store that could not be opened, a command that failed) and, when given, the daemon's
/// log so far. The wait for an event with a deadline that replaces sleep-then-assert.
///
/// The deadline is a hang guard, never a measure: it is generous (90 s, a few daemon check cycles on a loaded
/// 2-core machine, issue 31), and a test that passes waits only as long as the event takes.
func eventually(
    _ description: String,
    timeout: Duration = .seconds(90),
    log daemon: RunningMonitor? = nil,
    _ condition: () async throws -> Bool
) async throws {
    let deadline = ContinuousClock.now + timeout
    var lastError: (any Error)?
    while true {
        do {
            if try await condition() { return }
            lastError = nil
        } catch {
            lastError = error
        }
        guard ContinuousClock.now < deadline else {
            throw FixtureTimeoutError(
                waitingFor: description + (lastError.map { "; the last check threw: \($0)" } ?? "")
                    + (daemon.map { "; daemon log:\n\($0.standardError.suffix(4000))" } ?? ""),
                activity: FixtureActivity())
        }
        try await Task.sleep(for: .milliseconds(50))
    }
}
