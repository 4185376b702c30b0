import Foundation
import Synchronization

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
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw ListenerError(step: "socket") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                Glibc.bind(socket, address, length) == 0 && listen(socket, 64) == 0
                    && getsockname(socket, address, &length) == 0
            }
        }
        guard bound else {
            Glibc.close(socket)
            throw ListenerError(step: "bind")
        }
        self.socket = socket
        self.port = Int(UInt16(bigEndian: address.sin_port))
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
