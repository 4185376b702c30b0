import Foundation

/// A TCP socket bound to a free port on 127.0.0.1, for tests that need a port: one refusing connections (bound, not
/// listening), one held busy or never answering (listening, never accepting), or just a free number.
public enum LoopbackSocket {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// A socket bound to 127.0.0.1 on a port the system picks, listening with `backlog` when `listening`; the
    /// caller closes `descriptor`.
    public static func bind(listening: Bool, backlog: Int32 = 16) throws -> (descriptor: Int32, port: Int) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket() failed: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                Foundation.bind(descriptor, raw, length) == 0 && (!listening || listen(descriptor, backlog) == 0)
                    && getsockname(descriptor, raw, &length) == 0
            }
        }
        guard bound else {
            let reason = errno
            close(descriptor)
            throw Failure(description: "binding a port on 127.0.0.1 failed: errno \(reason)")
        }
        return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// A port free at this moment (bound, then closed: another process could take it before it is used).
    public static func freePort() throws -> Int {
        let (descriptor, port) = try bind(listening: false)
        close(descriptor)
        return port
    }
}
