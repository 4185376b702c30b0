import Foundation
import Logging
import MonitorEvaluation
import MonitorPostgres

/// The commands that write what a cluster shares (`silence add`, `silence expire`) write it to the shared database
/// when the configuration has `store: postgres:`, so it holds on every node.
enum ClusterAccess {
    /// Runs `body` with the cluster's store (its schema created if no daemon has yet); `nil` without `store:`.
    static func withStore<T: Sendable>(
        _ configuration: MonitorConfiguration?, _ body: @Sendable (PostgresStore) async throws -> T
    ) async throws -> T? {
        guard let settings = configuration?.store else { return nil }
        var logger = Logger(label: "postgres")
        logger.logLevel = .critical
        let store = PostgresStore(location: settings.location, node: "cli-\(getpid())", logger: logger)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await store.run() }
            defer { group.cancelAll() }
            do {
                try await store.migrate()
                return try await body(store)
            } catch {
                throw CommandFailure(
                    message: "error: the cluster's database \(settings.location): \(error)", exitCode: 1)
            }
        }
    }
}
