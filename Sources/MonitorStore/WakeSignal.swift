import Synchronization

/// A wake-up call between the daemon's services: `notify()` from anywhere, `wait(until:)` in one consumer loop.
///
/// Replaces polling: the scheduler sleeps until its next deadline or until a check finishes or a reload changes the
/// plan; the delivery loop until its next retry or until a check queued deliveries. A notification that arrives
/// while nobody waits is kept for the next wait, so none is lost between a look at the state and the wait.
package final class WakeSignal: Sendable {
    private struct State {
        var pending = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())

    package init() {}

    /// Whether a notification waits for the next `wait` (what the runtime's tests look at).
    package var isPending: Bool { state.withLock { $0.pending } }

    package func notify() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let waiter = state.waiter else {
                state.pending = true
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume()
    }

    /// Returns when notified (or notified since the last wait), at `deadline`, or when the task is cancelled.
    package func wait(until deadline: ContinuousClock.Instant) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.notification() }
            group.addTask { try? await Task.sleep(until: deadline, clock: .continuous) }
            await group.next()
            group.cancelAll()
        }
    }

    private func notification() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                // Cancellation is flagged before its handler runs: a wait cancelled before it was stored ends here.
                let now = state.withLock { state -> Bool in
                    if state.pending || Task.isCancelled {
                        state.pending = false
                        return true
                    }
                    state.waiter = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume()
        }
    }
}
