#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Sends one datagram to an `AF_UNIX` socket, the transport of `sd_notify`.
enum DatagramSender {
    static func send(_ bytes: [UInt8], to destination: SystemdNotifier.Destination) throws(SystemdNotifyError) {
        let name: String
        let pathBytes: [UInt8]
        switch destination {
        case .path(let path):
            name = path
            pathBytes = Array(path.utf8)
        case .abstract(let abstract):
            // An abstract name starts with a NUL byte and is not NUL-terminated: its length is the address length.
            name = "@" + abstract
            pathBytes = [0] + Array(abstract.utf8)
        case .unsupported(let value):
            throw SystemdNotifyError(
                socket: value, operation: "address", errno: 0,
                message: "NOTIFY_SOCKET must be a path or an abstract @name")
        }
        var address = sockaddr_un()
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard pathBytes.count < capacity else {
            throw SystemdNotifyError(
                socket: name, operation: "address", errno: 0,
                message: "socket name longer than \(capacity - 1) bytes")
        }
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: pathBytes) }
        let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + pathBytes.count)

        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else {
            throw SystemdNotifyError(
                socket: name, operation: "socket", errno: errno, message: String(cString: strerror(errno)))
        }
        defer { close(descriptor) }
        let sent = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bytes.withUnsafeBytes {
                    sendto(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL), socketAddress, length)
                }
            }
        }
        guard sent == bytes.count else {
            let code = sent < 0 ? errno : 0
            throw SystemdNotifyError(
                socket: name, operation: "sendto", errno: code,
                message: sent < 0 ? String(cString: strerror(code)) : "sent \(sent) of \(bytes.count) bytes")
        }
    }
}
