import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A blocking HTTP/1.1 GET to `127.0.0.1:port` from a chosen loopback source address (127.0.0.2 … binds without
/// any set-up on Linux: all of 127/8 is the loopback interface), so that the endpoint sees many clients. The
/// project's HTTP engine cannot pick a source address; this client runs on a thread of its own, not on Swift's
/// cooperative pool, which the endpoint's handlers share in a test process.
enum SourceAddressClient {
    /// The `Authorization` header of `user:password`, with `spaces` spaces after `Basic`: a header spelled
    /// differently, of the same credential, which the endpoint has not cached.
    static func basic(_ user: String, _ password: String, spaces: Int = 1) -> String {
        "Basic" + String(repeating: " ", count: spaces) + Data("\(user):\(password)".utf8).base64EncodedString()
    }

    /// The answer's status and `Retry-After`, or status -1 with the reason when there was no answer within the
    /// 90 s hang guard.
    static func get(
        port: Int, from source: String, path: String = "/metrics", authorization: String?
    ) async -> (status: Int, retryAfter: String?, error: String?) {
        await withCheckedContinuation { continuation in
            Thread {
                continuation.resume(
                    returning: getNow(port: port, from: source, path: path, authorization: authorization))
            }.start()
        }
    }

    /// `get`, blocking the calling thread.
    static func getNow(
        port: Int, from source: String, path: String = "/metrics", authorization: String?
    ) -> (status: Int, retryAfter: String?, error: String?) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return (-1, nil, "socket: errno \(errno)") }
        defer { close(descriptor) }
        var timeout = timeval(tv_sec: 90, tv_usec: 0)
        _ = setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        _ = setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        local.sin_addr.s_addr = inet_addr(source)
        let bound = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else { return (-1, nil, "bind \(source): errno \(errno)") }
        var remote = sockaddr_in()
        remote.sin_family = sa_family_t(AF_INET)
        remote.sin_port = in_port_t(UInt16(port).bigEndian)
        remote.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &remote) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { return (-1, nil, "connect from \(source): errno \(errno)") }
        var request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        if let authorization { request += "Authorization: \(authorization)\r\n" }
        let bytes = Array((request + "\r\n").utf8)
        guard send(descriptor, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count else {
            return (-1, nil, "send from \(source): errno \(errno)")
        }
        // The status line and headers are all this client reads; the body, if any, is left unread.
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while !received.contains(subsequence: [13, 10, 13, 10]) {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            received += buffer[..<count]
        }
        let head = String(decoding: received, as: UTF8.self)
        let lines = head.components(separatedBy: "\r\n")
        let fields = lines.first?.split(separator: " ") ?? []
        guard fields.count >= 2, let status = Int(fields[1]) else {
            return (-1, nil, "no answer from the endpoint to \(source) (errno \(errno))")
        }
        let retryAfter = lines.first { $0.lowercased().hasPrefix("retry-after:") }
            .map { String($0.dropFirst("retry-after:".count)).trimmingCharacters(in: .whitespaces) }
        return (status, retryAfter, nil)
    }
}

extension Array where Element == UInt8 {
    fileprivate func contains(subsequence: [UInt8]) -> Bool {
        guard count >= subsequence.count else { return false }
        return (0...(count - subsequence.count)).contains { Array(self[$0..<($0 + subsequence.count)]) == subsequence }
    }
}
