import Foundation
import GRDB
import MonitorCore

/// Group commit: checks that finish close together are recorded in one transaction.
///
/// Every commit is durable (`synchronous=FULL`), so one commit per check costs an fsync per check; at a thousand
/// domains that is the store's main cost. A check waits at most `window` for others to join its transaction, at most
/// `limit` join one, and each is applied in its own savepoint: a check that cannot be recorded (an unreadable
/// state) fails alone, the others commit. `record` returns only after the commit, so an outbox row reported as
/// written is on disk; a crash loses only checks whose `record` had not returned.
actor GroupCommit {
    typealias Apply = @Sendable (Database) throws -> LedgerOutcome

    private struct Pending {
        var apply: Apply
        var continuation: CheckedContinuation<LedgerOutcome, any Error>
    }

    /// Reports each group's commit or failure to the store's health.
    private let writer: TrackedWriter
    private let window: Duration
    private let limit: Int
    private var pending: [Pending] = []
    private var flushScheduled = false

    init(writer: TrackedWriter, window: Duration = .milliseconds(10), limit: Int = 128) {
        self.writer = writer
        self.window = window
        self.limit = limit
    }

    /// Runs `apply` inside the next group transaction; returns its outcome once that transaction committed.
    func record(_ apply: @escaping Apply) async throws -> LedgerOutcome {
        try await withCheckedThrowingContinuation { continuation in
            pending.append(Pending(apply: apply, continuation: continuation))
            if pending.count >= limit {
                Task { await self.flush() }
            } else if !flushScheduled {
                flushScheduled = true
                let window = window
                Task {
                    try? await Task.sleep(for: window)
                    await self.flush()
                }
            }
        }
    }

    /// Commits everything waiting in one transaction, each check in its own savepoint.
    private func flush() async {
        flushScheduled = false
        let batch = pending
        pending = []
        guard !batch.isEmpty else { return }
        let applies = batch.map(\.apply)
        do {
            let results = try await writer.write { db -> [Result<LedgerOutcome, any Error>] in
                applies.map { apply in
                    var outcome: LedgerOutcome?
                    do {
                        try db.inSavepoint {
                            outcome = try apply(db)
                            return .commit
                        }
                    } catch {
                        return .failure(error)
                    }
                    return outcome.map { .success($0) } ?? .failure(CancellationError())
                }
            }
            for (item, result) in zip(batch, results) { item.continuation.resume(with: result) }
        } catch {
            // The transaction itself failed (disk full, I/O error): none of the batch was kept.
            for item in batch { item.continuation.resume(throwing: error) }
        }
    }
}
