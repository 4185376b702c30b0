import Foundation
import GRDB
internal import GRDBSQLite
import MonitorCore

/// The daemon's state database: one SQLite file in WAL mode under the state directory.
///
/// Every write is one transaction, and `synchronous=FULL` makes each commit durable before it returns, so a crash
/// (even `kill -9` or power loss) loses at most the check in flight and never leaves half a check, a timeline
/// event without its state, or an alert change without its outbox rows. Only the daemon opens it this way; it
/// runs the migrations. `status` uses `StoreReader.openReadOnly(directory:)`.
package final class MonitorStore: Sendable {
    /// The database's file name inside the state directory, for tools that look at it from outside.
    package static let databaseFileName = StoreSchema.fileName

    let writer: TrackedWriter
    /// Reads through the same connections (WAL: readers never wait for the writer).
    package let reader: StoreReader
    /// Whether writes commit; every write reports to it.
    package let health: StoreHealth
    /// The database file's device and inode when it was opened: a deleted or replaced file is noticed.
    let identity: FileIdentity?

    init(writer: any DatabaseWriter, path: String, health: StoreHealth = StoreHealth()) {
        let tracked = TrackedWriter(database: writer, health: health)
        self.writer = tracked
        self.health = health
        self.reader = StoreReader(database: writer, path: path)
        self.identity = path == ":memory:" ? nil : FileIdentity(path: path)
    }

    /// The database file (`:memory:` for in-memory stores).
    package var path: String { reader.path }

    /// Opens (creating if needed) `aasa-monitor.sqlite` in `directory` and migrates it to the current schema.
    ///
    /// The directory must exist. Waits up to `busyTimeout` seconds for locks held by readers or another writer.
    /// Throws `StoreError` `.unwritable` when the file can only be opened read-only.
    package static func open(directory: String, busyTimeout: TimeInterval = 5) async throws -> MonitorStore {
        let path = (directory as NSString).appendingPathComponent(StoreSchema.fileName)
        let pool: DatabasePool
        do {
            pool = try DatabasePool(path: path, configuration: configuration(busyTimeout: busyTimeout))
        } catch let error as DatabaseError where error.resultCode == .SQLITE_READONLY {
            // GRDB writes while opening a pool whose WAL is empty (as a clean stop leaves it): the file is read-only.
            throw StoreError(.unwritable, path: path)
        }
        // SQLite silently falls back to read-only when the file cannot be opened for writing; the daemon would
        // then run without recording anything, so it refuses to start instead.
        let readOnly = try await pool.writeWithoutTransaction { db in
            sqlite3_db_readonly(db.sqliteConnection, "main") == 1
        }
        if readOnly {
            try? pool.close()
            throw StoreError(.unwritable, path: path)
        }
        try await migrate(pool)
        return MonitorStore(writer: pool, path: path)
    }

    /// A private in-memory store with the same schema, for tests and `check` runs that keep nothing.
    package static func inMemory() async throws -> MonitorStore {
        let queue = try DatabaseQueue(configuration: configuration(busyTimeout: 5))
        try await migrate(queue)
        return MonitorStore(writer: queue, path: ":memory:")
    }

    private static func configuration(busyTimeout: TimeInterval) -> Configuration {
        var configuration = Configuration()
        configuration.busyMode = .timeout(busyTimeout)
        configuration.prepareDatabase { db in
            // FULL: a commit is on disk before it returns — the outbox promises at-least-once delivery.
            try db.execute(sql: "PRAGMA synchronous = FULL")
            // After each checkpoint the WAL shrinks back to 1 MiB: on a small filesystem a WAL that only grows
            // once held every byte free and the daemon never recovered.
            try db.execute(sql: "PRAGMA journal_size_limit = 1048576")
            // Keep -wal and -shm when the daemon stops: operators in the group may read but not create files in
            // the state directory, and SQLite cannot open a WAL database read-only without them.
            var persist: Int32 = 1
            _ = sqlite3_file_control(db.sqliteConnection, nil, SQLITE_FCNTL_PERSIST_WAL, &persist)
        }
        return configuration
    }

    private static func migrate(_ writer: any DatabaseWriter) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            StoreSchema.migrator.asyncMigrate(writer) { result in
                continuation.resume(with: result.map { _ in () })
            }
        }
    }

    /// Closes the database at shutdown, leaving it whole in its main file: the WAL is checkpointed and truncated
    /// first (SQLite's own checkpoint on close does not happen while the pool's readers keep the file open), so a
    /// stopped daemon leaves an empty `-wal` rather than up to 4 MB of it, and a copy of the main file is a backup.
    /// A reader still inside a read makes the checkpoint partial; closing goes on. Later calls throw.
    package func close() throws {
        _ = try? writer.database.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
        }
        try writer.close()
    }

    /// Records that the daemon is alive; keeps `started_at` while the same process beats.
    package func beat(pid: Int32, at time: Date, version: String, host: String = LocalHost.name) async throws {
        try await writer.write { db in
            try db.execute(
                sql: """
                    INSERT INTO heartbeat (id, pid, host, started_at, beat_at, version) VALUES (1, ?1, ?2, ?3, ?3, ?4)
                    ON CONFLICT (id) DO UPDATE SET
                      started_at = CASE WHEN pid = excluded.pid AND host = excluded.host
                                        THEN started_at ELSE excluded.started_at END,
                      pid = excluded.pid, host = excluded.host, beat_at = excluded.beat_at, version = excluded.version
                    """,
                arguments: [Int64(pid), host, StoredInstant(time), version])
        }
    }

    /// Retention: removes history runs that ended before `cutoff` (never a domain's open run) and timeline events
    /// older than `cutoff`, documents no run or current state refers to and not seen since `cutoff`, and finished
    /// deliveries older than `cutoff`. Current domain state, alert states and unfinished deliveries are kept.
    @discardableResult
    package func prune(olderThan cutoff: Date) async throws -> PruneResult {
        let before = StoredInstant(cutoff)
        return try await writer.write { db in
            try db.execute(
                sql: """
                    DELETE FROM runs WHERE last_seen < ?
                      AND id NOT IN (SELECT run_id FROM domain_state WHERE run_id IS NOT NULL)
                    """,
                arguments: [before])
            let runs = db.changesCount
            try db.execute(sql: "DELETE FROM timeline WHERE at < ?", arguments: [before])
            let timelineEvents = db.changesCount
            try db.execute(
                sql: """
                    DELETE FROM documents WHERE last_seen < ? AND hash NOT IN (
                      SELECT origin_hash FROM runs WHERE origin_hash IS NOT NULL
                      UNION SELECT cdn_hash FROM runs WHERE cdn_hash IS NOT NULL
                      UNION SELECT origin_hash FROM domain_state WHERE origin_hash IS NOT NULL
                      UNION SELECT cdn_hash FROM domain_state WHERE cdn_hash IS NOT NULL)
                    """,
                arguments: [before])
            let documents = db.changesCount
            // Silences over for longer than retention say nothing any more.
            try db.execute(sql: "DELETE FROM silences WHERE ends_at < ?", arguments: [before])
            try db.execute(
                sql: "DELETE FROM outbox WHERE state IN (?, ?) AND finished_at < ?",
                arguments: [OutboxState.delivered, OutboxState.dead, before])
            return PruneResult(
                runs: runs, timelineEvents: timelineEvents, documents: documents, deliveries: db.changesCount)
        }
    }
}
