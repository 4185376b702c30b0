import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A datagram socket standing in for systemd's notification socket: bound to a path or an abstract name, it
/// receives what `SystemdNotifier` sends, waiting with a deadline (poll) instead of sleeping.
final class NotifySocket {
    let descriptor: Int32
    /// The value to put in `NOTIFY_SOCKET`.
    let environmentValue: String
    private let directory: URL?

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Binds a socket file in a new temporary directory.
    static func bound() throws -> NotifySocket {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("notify-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("notify.sock").path
        return try NotifySocket(name: Array(path.utf8), environmentValue: path, directory: directory)
    }

    /// Binds an abstract socket with a unique name.
    static func abstract() throws -> NotifySocket {
        let name = "aasa-monitor-test-\(UUID().uuidString)"
        return try NotifySocket(name: [0] + Array(name.utf8), environmentValue: "@" + name, directory: nil)
    }

    private init(name: [UInt8], environmentValue: String, directory: URL?) throws {
        self.environmentValue = environmentValue
        self.directory = directory
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: name) }
        let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + name.count)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        guard result == 0 else {
            close(descriptor)
            throw Failure(description: "bind \(environmentValue): errno \(errno)")
        }
    }

    deinit {
        close(descriptor)
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }

    /// The next datagram as text, or `nil` when none arrives within the deadline.
    func receive(within milliseconds: Int32 = 5000) -> String? {
        guard pollReadable(descriptor, within: .milliseconds(milliseconds)) else { return nil }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(descriptor, &buffer, buffer.count, 0)
        guard count >= 0 else { return nil }
        return String(decoding: buffer[..<count], as: UTF8.self)
    }
}
