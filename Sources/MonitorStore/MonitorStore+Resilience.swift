import Foundation
import GRDB

#if canImport(Glibc)
    import Glibc
    // `struct stat` is attributed to whichever C module first included <sys/stat.h>, which varies between builds
    // (MemberImportVisibility then names CoreFoundation or CDispatch): import every candidate.
    import CoreFoundation
    #if canImport(CDispatch)
        import CDispatch
    #endif
#endif

/// The state database's device and inode, to notice a file deleted or replaced under the running daemon.
struct FileIdentity: Sendable, Hashable {
    var device: UInt64
    var inode: UInt64

    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }
}

/// What happened to the database file since the store opened it.
package enum StoreFileChange: Sendable, Hashable {
    /// No file at the path any more (the daemon still writes to its open, unlinked copy).
    case deleted
    /// Another file is at the path.
    case replaced
}

/// The store's file was deleted or replaced: the daemon stops (exit 1) so that it reopens the file at the path.
package struct StoreFileChangedError: Error, CustomStringConvertible {
    package var path: String
    package var change: StoreFileChange
    /// For a deleted file: whether the open copy was written back to the path.
    package var restored: Bool

    package init(path: String, change: StoreFileChange, restored: Bool) {
        self.path = path
        self.change = change
        self.restored = restored
    }

    package var description: String {
        switch change {
        case .deleted where restored:
            "the state database \(path) was deleted while the daemon ran; it was re-created from the open copy "
                + "(history, alert states and outbox kept) and the daemon stops to reopen it"
        case .deleted:
            "the state database \(path) was deleted while the daemon ran and could not be re-created; the daemon "
                + "stops: check the state directory, its owner and free space"
        case .replaced:
            "the state database \(path) was replaced by another file while the daemon ran; the daemon stops and "
                + "will use the new file when restarted"
        }
    }
}

extension MonitorStore {
    /// Whether the file at `path` is still the one opened (`nil` for in-memory stores and unchanged files).
    package func fileChange() -> StoreFileChange? {
        guard let identity else { return nil }
        guard let current = FileIdentity(path: path) else {
            return errno == ENOENT ? .deleted : nil
        }
        return current == identity ? nil : .replaced
    }

    /// Writes the open (deleted) database back to its path: a checkpoint, then `VACUUM INTO` a file beside it that
    /// is renamed into place, after removing the old WAL and shared-memory files, which belong to the deleted file.
    /// The copy has every alert state and undelivered delivery, so no old alert is sent again as new.
    package func restoreDeletedFile() async throws {
        let path = path
        let temporary = path + ".restore"
        // The whole state directory may be gone (`rm -r`): re-create it where permissions allow.
        try? FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try? FileManager.default.removeItem(atPath: temporary)
        try await writer.database.writeWithoutTransaction { db in
            _ = try? db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
            try db.execute(sql: "VACUUM INTO ?", arguments: [temporary])
        }
        for suffix in ["-wal", "-shm"] { unlink(path + suffix) }
        guard rename(temporary, path) == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
    }

    /// Copies the WAL into the database and truncates it (`wal_checkpoint(TRUNCATE)`), giving its space back; run
    /// on a schedule and after a failed commit. Returns whether the checkpoint completed (readers may hold it).
    @discardableResult
    package func checkpoint() async throws -> Bool {
        try await writer.database.writeWithoutTransaction { db in
            let row = try Row.fetchOne(db, sql: "PRAGMA wal_checkpoint(TRUNCATE)")
            return (row?[0] as Int?) == 0
        }
    }

    /// Frees room on a full disk by deleting the older half of the history (ended runs and timeline events) and
    /// finished deliveries; alert states, domain state and undelivered deliveries are kept. The freed pages are
    /// reused by the next commits; the file does not shrink. Not reported to `StoreHealth`: a shed that commits
    /// does not show that checks commit again, and must not resolve `monitor.store`.
    @discardableResult
    package func shedHistory() async throws -> Int {
        try await writer.database.write { db in
            try db.execute(
                sql: """
                    DELETE FROM runs WHERE id IN (
                      SELECT id FROM runs WHERE id NOT IN (SELECT run_id FROM domain_state WHERE run_id IS NOT NULL)
                      ORDER BY last_seen LIMIT (SELECT (COUNT(*) + 1) / 2 FROM runs))
                    """)
            var shed = db.changesCount
            try db.execute(
                sql: "DELETE FROM timeline WHERE id IN (SELECT id FROM timeline ORDER BY at LIMIT "
                    + "(SELECT (COUNT(*) + 1) / 2 FROM timeline))")
            shed += db.changesCount
            try db.execute(
                sql: "DELETE FROM outbox WHERE state IN (?, ?)", arguments: [OutboxState.delivered, OutboxState.dead])
            shed += db.changesCount
            return shed
        }
    }
}
