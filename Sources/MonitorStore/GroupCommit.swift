import Foundation
import GRDB
import MonitorCore

/// Group commit: journal appends (`MonitorStore.append`) that arrive while a transaction is being committed are
/// written together in the next.
///
/// Every commit is durable (`synchronous=FULL`), so one commit per check costs an fsync per check; at a thousand
/// domains that is the store's main cost. A check that finishes while the writer is idle is committed at once;
/// checks that finish while a commit (its fsync) is under way wait for it and then share one transaction, at
/// most `limit` of them. No timer: a quiet daemon commits each check without delay and without waking a thread
/// for a window that nobody joins; a busy one batches by itself. Each check is applied in its own savepoint: a
/// check that cannot be recorded fails alone, the others commit. `record(_:)` returns only after the commit, so
/// an outbox row reported as written is on disk; a crash loses only the appends whose `record(_:)` had not
/// returned.
actor GroupCommit {
    typealias Apply = @Sendable (Database) throws -> RunMark?

    private struct Pending {
        var apply: Apply
        var continuation: CheckedContinuation<RunMark?, any Error>
    }

    /// Reports each group's commit or failure to the store's health.
    private let writer: TrackedWriter
    private let limit: Int
    private var pending: [Pending] = []
    /// True while a task is committing groups; new checks then join `pending` for the next group.
    private var committing = false

    init(writer: TrackedWriter, limit: Int = 128) {
        self.writer = writer
        self.limit = limit
    }

    /// Runs `apply` inside the next group transaction; returns what it returned once that transaction committed.
    func record(_ apply: @escaping Apply) async throws -> RunMark? {
        try await withCheckedThrowingContinuation { continuation in
            pending.append(Pending(apply: apply, continuation: continuation))
            guard !committing else { return }
            committing = true
            Task { await self.commitWhilePending() }
        }
    }

    /// Commits groups until nothing waits.
    private func commitWhilePending() async {
        while !pending.isEmpty {
            let count = min(limit, pending.count)
            let batch = Array(pending.prefix(count))
            pending.removeFirst(count)
            await flush(batch)
        }
        committing = false
    }

    /// Commits `batch` in one transaction, each check in its own savepoint, and resumes each check's caller.
    private func flush(_ batch: [Pending]) async {
        let applies = batch.map(\.apply)
        do {
            let results = try await writer.write { db -> [Result<RunMark?, any Error>] in
                applies.map { apply in
                    var run: RunMark?
                    do {
                        try db.inSavepoint {
                            run = try apply(db)
                            return .commit
                        }
                    } catch {
                        return .failure(error)
                    }
                    return .success(run)
                }
            }
            for (item, result) in zip(batch, results) { item.continuation.resume(with: result) }
        } catch {
            // The transaction itself failed (disk full, I/O error): none of the batch was kept.
            for item in batch { item.continuation.resume(throwing: error) }
        }
    }
}
