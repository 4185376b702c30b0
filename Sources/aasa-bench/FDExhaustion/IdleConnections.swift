import Foundation

/// TCP connections to a local port that never send a byte: what a hostile local user holds open.
///
/// `@unchecked Sendable`: the descriptors are only closed, once, by `close()` or `deinit`.
final class IdleConnections: @unchecked Sendable {
    private var descriptors: [Int32] = []

    /// Opens up to `count` connections to 127.0.0.1:`port`. A connect beyond the listen backlog would wait for
    /// the server, so each socket connects non-blocking; one the kernel refuses outright is just not counted.
    init(port: Int, count: Int) {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let socketType = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        for _ in 0..<count {
            let descriptor = socket(AF_INET, socketType, 0)
            guard descriptor >= 0 else { break }
            let result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            if result == 0 || errno == EINPROGRESS {
                descriptors.append(descriptor)
            } else {
                Glibc.close(descriptor)
            }
        }
    }

    var count: Int { descriptors.count }

    func close() {
        for descriptor in descriptors { Glibc.close(descriptor) }
        descriptors.removeAll()
    }

    deinit { close() }
}

/// Raises this process's soft descriptor limit to its hard one: it holds `--parallel` × `--connections` sockets.
func raiseOwnDescriptorLimit() {
    var limit = rlimit()
    guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
    limit.rlim_cur = limit.rlim_max
    _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
}
