/// Work handed from any thread to the loop thread; always accessed under the engine's `Mutex`.
///
/// The loop drains it once per turn, submissions before cancellations, so a cancellation never overtakes the
/// submission it refers to inside the loop.
struct Inbox {
    /// Requests not yet seen by the loop.
    var submissions: [TransferTicket] = []
    /// Ids of requests whose callers cancelled them.
    var cancellations: [UInt64] = []
    /// `shutdown()` was called.
    var shutdownRequested = false
    /// The loop has seen the shutdown: new work is refused and the multi handle may be gone, so nobody may call
    /// `curl_multi_wakeup` any more.
    var closed = false
    /// The loop thread has cleaned up and is exiting.
    var finished = false
    /// `shutdown()` callers waiting for `finished`.
    var shutdownWaiters: [CheckedContinuation<Void, Never>] = []

    /// What one turn of the loop takes out.
    struct Batch {
        var submissions: [TransferTicket]
        var cancellations: [UInt64]
        var shutdown: Bool
    }

    /// Takes everything pending; on shutdown marks the inbox closed in the same critical section.
    mutating func drain() -> Batch {
        let batch = Batch(submissions: submissions, cancellations: cancellations, shutdown: shutdownRequested)
        if !submissions.isEmpty { submissions.removeAll(keepingCapacity: true) }
        if !cancellations.isEmpty { cancellations.removeAll(keepingCapacity: true) }
        if shutdownRequested { closed = true }
        return batch
    }
}
