import Foundation
import Synchronization

/// Idle connections to a local port, each reopened as soon as the server closes it: what a hostile local user does
/// once the endpoint sheds idle connections (issue 32 §2). Runs on a thread of its own until `stop()`.
///
/// `@unchecked Sendable`: the descriptors are touched only by the flood's thread; `stop` only sets an atomic flag.
final class IdleFlood: @unchecked Sendable {
    private let port: Int
    private let count: Int
    private let stopped = Atomic(false)
    private let finished = DispatchSemaphore(value: 0)
    private let reopened = Atomic(0)

    /// How many connections the server closed (each was reopened).
    var reopenedCount: Int { reopened.load(ordering: .relaxed) }

    init(port: Int, count: Int) {
        self.port = port
        self.count = count
        Thread { self.run() }.start()
    }

    func stop() {
        stopped.store(true, ordering: .relaxed)
        finished.wait()
    }

    private func run() {
        var descriptors = (0..<count).map { _ in open() }
        while !stopped.load(ordering: .relaxed) {
            for index in descriptors.indices where descriptors[index] < 0 { descriptors[index] = open() }
            var polled = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            guard poll(&polled, nfds_t(polled.count), 100) > 0 else { continue }
            var byte: UInt8 = 0
            for (index, entry) in polled.enumerated() where entry.revents != 0 {
                // Readable with nothing to read: the server ended the connection (EOF or reset).
                if entry.fd >= 0, recv(entry.fd, &byte, 1, Int32(MSG_DONTWAIT)) > 0 { continue }
                if entry.fd >= 0 { close(entry.fd) }
                descriptors[index] = open()
                reopened.add(1, ordering: .relaxed)
            }
        }
        for descriptor in descriptors where descriptor >= 0 { close(descriptor) }
        finished.signal()
    }

    /// A non-blocking connect (one beyond the listen backlog waits for the server); -1 when the socket failed.
    private func open() -> Int32 {
        let socketType = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        let descriptor = socket(AF_INET, socketType, 0)
        guard descriptor >= 0 else { return -1 }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        return descriptor
    }
}
