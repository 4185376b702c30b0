import Foundation
import MonitorPostgres
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
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && listen(descriptor, 16) == 0
                    && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard ok else { throw ServerError("listen failed: errno \(errno)") }
        self.descriptor = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    func close() { _ = Foundation.close(descriptor) }
}
