import Synchronization

/// What a fixture server has seen so far; tests wait on it with a deadline instead of sleeping.
public struct FixtureActivity: Sendable {
    /// Requests in the order their last byte arrived.
    public var requests: [RecordedRequest] = []
    /// TCP connections accepted.
    public var connectionsAccepted = 0
    /// TLS handshakes completed.
    public var tlsHandshakesCompleted = 0
    /// Connections that have closed (either side).
    public var connectionsClosed = 0
    /// ALPN protocols negotiated, one per completed handshake (`"h2"`, `"http/1.1"` or `"none"`).
    public var negotiatedProtocols: [String] = []

    public init() {}
}

/// A condition on `FixtureActivity` did not become true in time.
public struct FixtureTimeoutError: Error, CustomStringConvertible {
    /// What was awaited.
    public let waitingFor: String
    /// The activity when the deadline passed.
    public let activity: FixtureActivity

    public init(waitingFor: String, activity: FixtureActivity) {
        self.waitingFor = waitingFor
        self.activity = activity
    }

    public var description: String {
        "timed out waiting for \(waitingFor); saw \(activity.requests.count) requests, "
            + "\(activity.connectionsAccepted) connections, \(activity.tlsHandshakesCompleted) handshakes, "
            + "\(activity.connectionsClosed) closed"
    }
}

/// Records activity from the server's event loops and wakes waiters whose condition became true.
final class FixtureRecorder: Sendable {
    private struct Waiter {
        let condition: @Sendable (FixtureActivity) -> Bool
        let continuation: CheckedContinuation<FixtureActivity, any Error>
        let description: String
        let deadline: Task<Void, Never>
    }

    private struct State {
        var activity = FixtureActivity()
        var waiters: [UInt64: Waiter] = [:]
        var nextWaiter: UInt64 = 0
    }

    private let state = Mutex(State())

    var activity: FixtureActivity { state.withLock { $0.activity } }

    func update(_ change: (inout FixtureActivity) -> Void) {
        let ready = state.withLock { state -> [(CheckedContinuation<FixtureActivity, any Error>, FixtureActivity)] in
            change(&state.activity)
            var ready: [(CheckedContinuation<FixtureActivity, any Error>, FixtureActivity)] = []
            for (id, waiter) in state.waiters where waiter.condition(state.activity) {
                state.waiters.removeValue(forKey: id)
                waiter.deadline.cancel()
                ready.append((waiter.continuation, state.activity))
            }
            return ready
        }
        for (continuation, activity) in ready { continuation.resume(returning: activity) }
    }

    /// Returns as soon as `condition` holds, or throws `FixtureTimeoutError` after `timeout`.
    func wait(
        for description: String, timeout: Duration, until condition: @escaping @Sendable (FixtureActivity) -> Bool
    ) async throws -> FixtureActivity {
        let id = state.withLock { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        return try await withCheckedThrowingContinuation { continuation in
            let immediate = state.withLock { state -> FixtureActivity? in
                if condition(state.activity) { return state.activity }
                // The timer starts only once the waiter is registered, so it cannot fire too early to find it.
                let deadline = Task { [weak self] in
                    try? await Task.sleep(for: timeout)
                    guard !Task.isCancelled else { return }
                    self?.expire(id)
                }
                state.waiters[id] = Waiter(
                    condition: condition, continuation: continuation, description: description, deadline: deadline)
                return nil
            }
            if let immediate { continuation.resume(returning: immediate) }
        }
    }

    private func expire(_ id: UInt64) {
        let expired = state.withLock { state -> (Waiter, FixtureActivity)? in
            state.waiters.removeValue(forKey: id).map { ($0, state.activity) }
        }
        if let (waiter, activity) = expired {
            waiter.continuation.resume(
                throwing: FixtureTimeoutError(waitingFor: waiter.description, activity: activity))
        }
    }
}
