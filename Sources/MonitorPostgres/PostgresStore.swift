import Foundation
import Logging
import MonitorEvaluation
import NIOSSL
import PostgresNIO

/// The cluster's shared store on PostgreSQL: domain leases, the outbox, silences and the nodes' liveness rows.
///
/// Several daemons on one database form a cluster (issue 34). Safety never rests on a node's clock or on a node
/// being alive: ownership is in the rows (owner, epoch, lease expiry) judged by the database's `now()`, work is
/// claimed with `FOR UPDATE SKIP LOCKED`, and a result is written only while its lease still holds (the fence).
///
/// Every call carries a deadline (`callTimeout`): a query to a server that stopped answering fails with
/// `PostgresStoreError.timedOut` instead of hanging the daemon. `run()` must be running for any call to answer.
package final class PostgresStore: Sendable {
    package let node: String
    package let location: PostgresLocation
    package let callTimeout: Double
    let client: PostgresClient
    let logger: Logger

    /// A store for `node` (its name in leases, claims and the members list) at `location`.
    package init(
        location: PostgresLocation, node: String, callTimeout: Double = 5, maximumConnections: Int = 8,
        logger: Logger
    ) {
        var configuration = PostgresClient.Configuration(
            host: location.host, port: location.port, username: location.user, password: location.password,
            database: location.database, tls: Self.tls(location))
        configuration.options.maximumConnections = maximumConnections
        configuration.options.connectTimeout = .milliseconds(Int(callTimeout * 1000))
        self.client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.node = node
        self.location = location
        self.callTimeout = callTimeout
        self.logger = logger
    }

    /// The connection pool's background work; returns when the calling task is cancelled.
    package func run() async { await client.run() }

    private static func tls(_ location: PostgresLocation) -> PostgresClient.Configuration.TLS {
        tlsConfiguration(location).map { .require($0) } ?? .disable
    }

    /// The TLS settings of `location`'s sslmode; `nil` for `disable`.
    static func tlsConfiguration(_ location: PostgresLocation) -> TLSConfiguration? {
        var tls = TLSConfiguration.makeClientConfiguration()
        switch location.tls {
        case .disable:
            return nil
        case .require:
            tls.certificateVerification = .none
        case .verifyFull:
            tls.certificateVerification = .fullVerification
            if let caFile = location.caFile { tls.trustRoots = .file(caFile) }
        }
        return tls
    }

    /// Opens one connection outside the pool and closes it: the pool retries a refused login or a bad certificate
    /// quietly until the call's deadline, while this says why at once (authentication, TLS, refused).
    package func verifyConnection() async throws(PostgresStoreError) {
        let location = self.location
        let logger = self.logger
        let what = "connecting to \(location)"
        do {
            try await withDeadline(seconds: callTimeout, doing: what) {
                let tls: PostgresConnection.Configuration.TLS =
                    try Self.tlsConfiguration(location).map { .require(try NIOSSLContext(configuration: $0)) }
                    ?? .disable
                let configuration = PostgresConnection.Configuration(
                    host: location.host, port: location.port, username: location.user, password: location.password,
                    database: location.database, tls: tls)
                let connection = try await PostgresConnection.connect(
                    configuration: configuration, id: 0, logger: logger)
                try await connection.close()
            }
        } catch {
            throw PostgresStoreError.describing(error, while: what)
        }
    }

    /// Runs `body` in one transaction under the call deadline; failures come out as `PostgresStoreError`.
    func transaction<T: Sendable>(
        _ what: String, _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws(PostgresStoreError) -> T {
        let client = self.client
        let logger = self.logger
        do {
            return try await withDeadline(seconds: callTimeout, doing: what) {
                try await client.withConnection { connection in
                    try await connection.withTransaction(logger: logger) { connection in
                        try await body(connection)
                    }
                }
            }
        } catch {
            throw PostgresStoreError.describing(error, while: what)
        }
    }

    /// Runs one statement outside a transaction under the call deadline and collects its rows.
    func rows(_ what: String, _ query: PostgresQuery) async throws(PostgresStoreError) -> [PostgresRow] {
        let client = self.client
        let logger = self.logger
        do {
            return try await withDeadline(seconds: callTimeout, doing: what) {
                try await client.query(query, logger: logger).collect()
            }
        } catch {
            throw PostgresStoreError.describing(error, while: what)
        }
    }
}
