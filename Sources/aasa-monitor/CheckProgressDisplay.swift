import Foundation
import MonitorCheck
import MonitorDaemon
import Synchronization

/// `check`'s progress (`CheckProgress`) on standard error while the domains are checked: one line, rewritten in
/// place twice a second once the rule says so, and cleared before each piece of the report, so a terminal that
/// shows both never mixes them on one line.
///
/// Without a terminal on standard error nothing runs: no ticker, not one byte written.
final class CheckProgressDisplay: Sendable {
    private struct State {
        var checked = 0
        var shown = false
        var finished = false
    }

    private let state = Mutex(State())
    private let total: Int
    private let terminal: Bool
    private let started = ContinuousClock.now

    /// Progress over `total` distinct domains.
    init(total: Int, standardErrorIsTerminal: Bool = isatty(STDERR_FILENO) == 1) {
        self.total = total
        self.terminal = standardErrorIsTerminal
    }

    /// One more domain checked; called from the tasks that check them.
    func domainChecked() {
        state.withLock { $0.checked += 1 }
    }

    /// Runs `write` (a piece of the report) with the progress line cleared.
    func output(_ write: () throws(CommandFailure) -> Void) throws(CommandFailure) {
        try state.withLock { state throws(CommandFailure) in
            Self.clear(&state)
            try write()
        }
    }

    /// Runs `body`, the check, while a ticker shows the line; the line is gone when this returns.
    func showing<Result>(_ body: () async throws -> Result) async throws -> Result {
        guard terminal else { return try await body() }
        let ticker = Task { [self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(500))
                tick()
            }
        }
        defer {
            ticker.cancel()
            state.withLock { state in
                Self.clear(&state)
                state.finished = true
            }
        }
        return try await body()
    }

    /// Draws the line if the rule says so; skipped while the report is being written (the next tick draws it).
    private func tick() {
        _ = state.withLockIfAvailable { state in
            let elapsed = ContinuousClock.now - started
            guard !state.finished else { return }
            guard
                CheckProgress.shows(
                    standardErrorIsTerminal: terminal, elapsed: elapsed, checked: state.checked, total: total)
            else { return Self.clear(&state) }
            let line = CheckProgress.line(checked: state.checked, total: total, elapsed: elapsed)
            _ = DescriptorWriter.writeAll(Data(("\r\u{1B}[K" + line).utf8), to: STDERR_FILENO)
            state.shown = true
        }
    }

    private static func clear(_ state: inout State) {
        guard state.shown else { return }
        _ = DescriptorWriter.writeAll(Data("\r\u{1B}[K".utf8), to: STDERR_FILENO)
        state.shown = false
    }
}
