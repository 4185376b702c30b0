import Synchronization

/// The meeting point of one `perform` call, its cancellation handler and the loop thread.
///
/// It makes three guarantees the engine relies on: the continuation is resumed exactly once (whoever finishes
/// first wins, later results are dropped); a cancellation that arrives before the request was submitted is
/// remembered, so the late submission is answered with `CancellationError` at once; and a cancellation that
/// arrives after the request finished does nothing and leaves nothing behind.
final class TransferTicket: Sendable {
    private enum State {
        /// `perform` has not handed over its continuation yet.
        case created
        /// Cancelled before the continuation arrived; `attach` answers with `CancellationError`.
        case cancelledEarly
        /// Waiting for the loop thread (or a cancellation, which finishes it at once) to finish it.
        case waiting(CheckedContinuation<HTTPResponse, any Error>)
        /// Resumed; nothing more happens.
        case finished
    }

    /// Unique per engine; the loop thread's key for this request.
    let id: UInt64
    /// The request, immutable.
    let request: HTTPRequest
    private let state = Mutex(State.created)

    init(id: UInt64, request: HTTPRequest) {
        self.id = id
        self.request = request
    }

    /// Hands over the continuation. Returns `false` (and resumes it with `CancellationError`) when the request was
    /// already cancelled, in which case the caller must not submit it.
    func attach(_ continuation: CheckedContinuation<HTTPResponse, any Error>) -> Bool {
        let cancelled = state.withLock { state -> Bool in
            guard case .created = state else {
                state = .finished
                return true
            }
            state = .waiting(continuation)
            return false
        }
        if cancelled {
            continuation.resume(throwing: CancellationError())
        }
        return !cancelled
    }

    /// Records a cancellation and, when the request was waiting, answers it with `CancellationError` at once.
    /// Returns `true` when the loop thread must be told, so it removes the transfer (or skips it when it arrives).
    ///
    /// Answering here rather than on the loop thread closes a race: the cancellation handler can run after
    /// `attach` but before `submit` reaches the inbox, and a loop turn between the two would find no transfer for
    /// the id, drop the cancellation, and then run the late submission to completion.
    func requestCancellation() -> Bool {
        let continuation = state.withLock { state -> CheckedContinuation<HTTPResponse, any Error>? in
            switch state {
            case .created:
                state = .cancelledEarly
                return nil
            case .waiting(let continuation):
                state = .finished
                return continuation
            case .cancelledEarly, .finished:
                return nil
            }
        }
        guard let continuation else { return false }
        continuation.resume(throwing: CancellationError())
        return true
    }

    /// Whether a result was already delivered (for example by a cancellation), so the loop can skip it.
    var isFinished: Bool {
        state.withLock { state in
            if case .finished = state { return true }
            return false
        }
    }

    /// Delivers the result; only the first call has an effect.
    func finish(_ result: Result<HTTPResponse, any Error>) {
        let continuation = state.withLock { state -> CheckedContinuation<HTTPResponse, any Error>? in
            guard case .waiting(let continuation) = state else { return nil }
            state = .finished
            return continuation
        }
        continuation?.resume(with: result)
    }
}
