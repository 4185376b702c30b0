import Foundation
import MonitorEvaluation
import MonitorPostgres
import TestSupport
import Testing

/// A database that does not answer makes a call fail within its deadline, not hang (vapor/postgres-nio #489).
@Suite("PostgreSQL call deadlines")
struct PostgresDeadlineTests {
    @Test("a server that accepts the connection and never answers: the call fails with timedOut")
    func silentServer() async throws {
        // A listening socket nobody accepts from: the TCP handshake completes (backlog), the startup message is
        // never answered.
        let listener = try SilentListener()
        defer { listener.close() }
        let location = PostgresLocation(
            host: "127.0.0.1", port: listener.port, user: "u", password: "secret-\(UUID().uuidString)", database: "d",
            tls: .disable)
        let error = await #expect(throws: PostgresStoreError.self) {
            try await withStore(location, node: "a", callTimeout: 1) { _ in }
        }
        #expect(error == .timedOut("connecting to \(location)", seconds: 1))
        #expect(!(error?.description.contains(location.password!) ?? true))
    }

    @Test("the deadline helper returns the body's value, or timedOut while the body ignores cancellation")
    func helper() async throws {
        #expect(try await withDeadline(seconds: 30, doing: "adding") { 2 + 2 } == 4)
        let error = await #expect(throws: PostgresStoreError.self) {
            try await withDeadline(seconds: 0.2, doing: "waiting") { () async throws -> Int in
                // Ignores cancellation: only the helper's own timer can end the wait.
                await withCheckedContinuation { (_: CheckedContinuation<Void, Never>) in }
                return 0
            }
        }
        #expect(error == .timedOut("waiting", seconds: 0.2))
    }
}

/// A TCP socket in listen state that never accepts: connects succeed, nothing is ever answered.
final class SilentListener: Sendable {
    let descriptor: Int32
    let port: Int

    init() throws {
        (descriptor, port) = try LoopbackSocket.bind(listening: true)
    }

    func close() { _ = Foundation.close(descriptor) }
}
