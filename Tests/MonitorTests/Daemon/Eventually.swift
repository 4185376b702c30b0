import Foundation
import TestSupport

/// Waits until `condition` holds, checking every 50 ms; throws after `timeout` with `description` and, when
/// given, the daemon's log so far. The wait for an event with a deadline that replaces sleep-then-assert.
func eventually(
    _ description: String,
    timeout: Duration = .seconds(30),
    log daemon: RunningMonitor? = nil,
    _ condition: () async throws -> Bool
) async throws {
    let deadline = ContinuousClock.now + timeout
    while true {
        if (try? await condition()) == true { return }
        guard ContinuousClock.now < deadline else {
            throw FixtureTimeoutError(
                waitingFor: description + (daemon.map { "; daemon log:\n\($0.standardError.suffix(4000))" } ?? ""),
                activity: FixtureActivity())
        }
        try await Task.sleep(for: .milliseconds(50))
    }
}
