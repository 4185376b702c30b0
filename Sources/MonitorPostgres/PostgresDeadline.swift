import Synchronization

/// Runs `body` and gives up after `seconds`, whether or not `body` listens to cancellation.
///
/// postgres-nio waits for ever for a connection to a server that does not answer (vapor/postgres-nio #489), and a
/// query on a connection whose server stopped answering waits as long as TCP does. A task group would wait for such
/// a child after the deadline too, so the work runs in a task of its own: at the deadline the caller gets
/// `PostgresStoreError.timedOut` at once and the abandoned work is cancelled, ending whenever postgres-nio lets it.
package func withDeadline<T: Sendable>(
    seconds: Double, doing what: String, _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    let race = DeadlineRace<T>()
    return try await withCheckedThrowingContinuation { continuation in
        race.begin(continuation)
        let work = Task {
            let result: Result<T, any Error>
            do { result = .success(try await body()) } catch { result = .failure(error) }
            race.finish(with: result)
        }
        let timer = Task {
            try? await Task.sleep(for: .milliseconds(Int((seconds * 1000).rounded(.up))))
            guard !Task.isCancelled else { return }
            if race.finish(with: .failure(PostgresStoreError.timedOut(what, seconds: seconds))) { work.cancel() }
        }
        race.armed(timer)
    }
}

/// The one answer of a `withDeadline` call: the work's or the timer's, whichever comes first.
private final class DeadlineRace<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T, any Error>?
        var timer: Task<Void, Never>?
        var finished = false
    }

    private let state = Mutex(State())

    func begin(_ continuation: CheckedContinuation<T, any Error>) {
        state.withLock { $0.continuation = continuation }
    }

    /// Keeps the timer to cancel it when the work wins (or cancels it at once if the work already won).
    func armed(_ timer: Task<Void, Never>) {
        let finished = state.withLock { state in
            state.timer = timer
            return state.finished
        }
        if finished { timer.cancel() }
    }

    /// Resumes the caller with `result` unless the other side came first; true when this was the answer.
    @discardableResult
    func finish(with result: Result<T, any Error>) -> Bool {
        let (continuation, timer) = state.withLock { state in
            defer {
                state.continuation = nil
                state.finished = true
            }
            return state.finished ? (nil, nil) : (state.continuation, state.timer)
        }
        guard let continuation else { return false }
        continuation.resume(with: result)
        timer?.cancel()
        return true
    }
}
