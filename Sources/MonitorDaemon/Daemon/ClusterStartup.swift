import Foundation
import Logging
import MonitorCore
import MonitorEvaluation
import MonitorPostgres

/// A cluster daemon's start (`store: postgres:`): the database reached and checked before anything else, the schema
/// migrated, the configured domains registered.
enum ClusterStartup {
    /// The daemon's name in the cluster: the configured `node`, else host name and process id (unique among
    /// daemons running at once, which is what leases need).
    static func nodeName(_ settings: ClusterStore) -> String {
        settings.node ?? "\(ProcessInfo.processInfo.hostName)-\(getpid())"
    }

    /// Opens the shared store for `configuration`; its pool runs in `pool` until that task is cancelled. Throws
    /// with a message naming the database (never its password) and what failed.
    static func open(
        _ settings: ClusterStore, configuration: MonitorConfiguration, logger: Logger
    ) async throws -> (journal: PostgresJournal, pool: Task<Void, Never>) {
        let store = PostgresStore(
            location: settings.location, node: nodeName(settings), logger: Logger(label: "postgres"))
        let pool = Task { await store.run() }
        do {
            try await store.migrate()
            try await store.register(
                domains: configuration.domains.map(\.name), spread: ClusterMode.startupSpread(for: configuration))
            try await store.beat(startedAt: Date())
        } catch {
            pool.cancel()
            throw error
        }
        logger.notice(
            "joined the cluster", metadata: ["database": "\(settings.location)", "node": "\(store.node)"])
        return (PostgresJournal(store: store), pool)
    }
}
