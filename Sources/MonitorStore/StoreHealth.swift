import Foundation
import GRDB
internal import GRDBSQLite
import Synchronization

/// Whether the state database can commit: every write reports here, and `/healthz`, systemd's status line and the
/// watchdog read it.
///
/// Storage trouble used to be invisible: with the files unwritable or the disk full, nothing was committed for a
/// minute while `/healthz` said 200. A write that fails marks the store failing until the next write commits; a
/// write that has not returned after `stuckAfter` marks it stuck (a lock held elsewhere, a hung filesystem).
package final class StoreHealth: Sendable {
    /// What is wrong, if anything.
    package enum Status: Sendable, Hashable {
        case committing
        /// Writes fail since `since`; `full` when SQLite said the disk is full.
        case failing(since: Date, reason: String, full: Bool)
        /// A write has not returned since `since`.
        case stuck(since: Date)
    }

    private struct State {
        var inFlight: [UInt64: Date] = [:]
        var nextToken: UInt64 = 0
        var failure: (since: Date, reason: String, full: Bool)?
        /// The first failure since `takeUnseenFailure()` last looked, kept after the store recovers.
        var unseen: (since: Date, reason: String)?
        var lastCommit: Date?
    }

    private let state = Mutex(State())
    /// Notified when writes start failing and when they commit again: housekeeping reacts at once instead of
    /// polling.
    package let changed = WakeSignal()
    private let clock: @Sendable () -> Date
    /// How long a write may take before the store counts as stuck.
    let stuckAfter: TimeInterval

    init(stuckAfter: TimeInterval = 30, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.stuckAfter = stuckAfter
        self.clock = clock
    }

    func begin() -> UInt64 {
        let now = clock()
        return state.withLock { state in
            state.nextToken += 1
            state.inFlight[state.nextToken] = now
            return state.nextToken
        }
    }

    func committed(_ token: UInt64) {
        let now = clock()
        let recovered = state.withLock { state in
            state.inFlight[token] = nil
            defer { state.failure = nil }
            state.lastCommit = now
            return state.failure != nil
        }
        if recovered { changed.notify() }
    }

    func failed(_ token: UInt64, _ error: any Error) {
        let now = clock()
        let started = state.withLock { state in
            state.inFlight[token] = nil
            // Cancellation at shutdown is not a storage fault.
            guard !(error is CancellationError) else { return false }
            let (reason, full) = Self.describe(error)
            defer { state.failure = (state.failure?.since ?? now, reason, full) }
            if state.unseen == nil { state.unseen = (now, reason) }
            return state.failure == nil
        }
        if started { changed.notify() }
    }

    /// A failure since the last call, even one the store has recovered from: a short outage is still reported.
    package func takeUnseenFailure() -> (since: Date, reason: String)? {
        state.withLock { state in
            defer { state.unseen = nil }
            return state.unseen
        }
    }

    /// The store's condition now.
    package var status: Status {
        let now = clock()
        return state.withLock { state in
            if let oldest = state.inFlight.values.min(), now.timeIntervalSince(oldest) > stuckAfter {
                return .stuck(since: oldest)
            }
            if let failure = state.failure {
                return .failing(since: failure.since, reason: failure.reason, full: failure.full)
            }
            return .committing
        }
    }

    /// The last successful commit, if any.
    package var lastCommit: Date? { state.withLock { $0.lastCommit } }

    /// A plain account of a write error, and whether it means a full disk.
    static func describe(_ error: any Error) -> (String, Bool) {
        guard let database = error as? DatabaseError else { return ("\(error)", false) }
        let detail = database.message.map { " (\($0))" } ?? ""
        switch database.resultCode {
        case .SQLITE_FULL:
            return ("the disk is full" + detail + "; free space on the state directory's filesystem", true)
        case .SQLITE_READONLY, .SQLITE_PERM, .SQLITE_CANTOPEN:
            return ("the database file cannot be written" + detail + "; check its owner, mode and mount", false)
        case .SQLITE_IOERR: return ("an I/O error" + detail + "; check the disk and the filesystem", false)
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return ("the database is locked by another process" + detail + "; stop whatever holds it", false)
        case .SQLITE_NOMEM: return ("out of memory" + detail, false)
        default: return ("\(database)", false)
        }
    }
}

/// The database writer with every write reported to `StoreHealth`; reads pass straight through.
struct TrackedWriter: Sendable {
    let database: any DatabaseWriter
    let health: StoreHealth

    func write<T: Sendable>(_ updates: @Sendable (Database) throws -> T) async throws -> T {
        let token = health.begin()
        do {
            let result = try await database.write(updates)
            health.committed(token)
            return result
        } catch {
            health.failed(token, error)
            throw error
        }
    }

    func read<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
        try await database.read(value)
    }

    func close() throws { try database.close() }
}
