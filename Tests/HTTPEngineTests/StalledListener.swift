import Foundation
import Synchronization
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A TCP listener on 127.0.0.1 that accepts connections and then never reads: a peer that stalls in the TLS
/// handshake. With `reply`, it writes those bytes first (plain text where TLS is expected: a protocol failure).
/// Connections stay open until `close()`.
final class StalledListener: Sendable {
    let port: Int
    private let socket: Int32
    private let accepted = Mutex<[Int32]>([])

    init(reply: [UInt8]? = nil) throws {
        let (socket, port) = try LoopbackSocket.bind(listening: true, backlog: 64)
        self.socket = socket
        self.port = port
        Thread.detachNewThread { [self] in
            while true {
                let connection = accept(socket, nil, nil)
                guard connection >= 0 else { return }  // closed
                if let reply { _ = reply.withUnsafeBytes { write(connection, $0.baseAddress, $0.count) } }
                self.accepted.withLock { $0.append(connection) }
            }
        }
    }

    /// How many connections were accepted.
    var connections: Int { accepted.withLock { $0.count } }

    /// Waits until `count` connections were accepted, or throws after `timeout`.
    func waitForConnections(_ count: Int, timeout: Duration = .seconds(10)) async throws {
        let deadline = ContinuousClock.now + timeout
        while connections < count {
            guard ContinuousClock.now < deadline else { throw ListenerError(step: "waiting for \(count) connections") }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Stops accepting and closes every connection.
    func close() {
        shutdown(socket, Int32(SHUT_RDWR))
        Glibc.close(socket)
        for connection in accepted.withLock({ $0 }) { Glibc.close(connection) }
    }

    struct ListenerError: Error, CustomStringConvertible {
        var step: String
        var description: String { "stalled listener: \(step) failed (errno \(errno))" }
    }
}
