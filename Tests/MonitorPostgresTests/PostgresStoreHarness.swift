import Foundation
import Logging
import MonitorEvaluation
import MonitorPostgres
import TestSupport

/// A store for `node` on `location`, its pool running for the length of `body`, the schema migrated.
func withStore<T: Sendable>(
    _ location: PostgresLocation, node: String, callTimeout: Double = 30,
    _ body: @Sendable (PostgresStore) async throws -> T
) async throws -> T {
    var logger = Logger(label: "test.postgres.\(node)")
    logger.logLevel = .critical
    let store = PostgresStore(location: location, node: node, callTimeout: callTimeout, logger: logger)
    return try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { await store.run() }
        defer { group.cancelAll() }
        try await store.migrate()
        return try await body(store)
    }
}

/// Two stores (nodes "a" and "b") on one fresh database.
func withTwoNodes<T: Sendable>(
    _ body: @Sendable (PostgresServer, PostgresLocation, PostgresStore, PostgresStore) async throws -> T
) async throws -> T {
    let (server, location) = try await PostgresServer.freshDatabase()
    return try await withStore(location, node: "a") { a in
        try await withStore(location, node: "b") { b in try await body(server, location, a, b) }
    }
}
