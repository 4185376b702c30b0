import Foundation
import MonitorCore
import MonitorEndpoint
import MonitorEvaluation
import NIOCore
import ServiceLifecycle
import Synchronization

/// The endpoint as the daemon runs it: start-up is complete once its socket is bound (`started`, the core then
/// starts checking), and a failure to bind is an error that names the address (`failed`, nothing is checked).
struct GatedEndpoint: Service, CustomStringConvertible {
    let endpoint: @Sendable (@escaping @Sendable (ListenAddress) async -> Void) -> MonitorEndpoint
    let listen: ListenAddress
    let started: @Sendable () -> Void
    let failed: @Sendable (String) -> Void

    func run() async throws {
        let started = started
        let listening = Mutex(false)
        do {
            try await endpoint({ _ in
                listening.withLock { $0 = true }
                started()
            }).run()
        } catch {
            if listening.withLock({ $0 }) { throw error }
            let reason = Self.bindFailure(error, listen: listen)
            failed(reason)
            throw EndpointBindError(reason: reason)
        }
        if !listening.withLock({ $0 }) { failed("the endpoint on \(listen) stopped before it was listening") }
    }

    var description: String { "endpoint \(listen)" }

    /// Why `listen` could not be bound, in words for people; other errors as NIO says them.
    static func bindFailure(_ error: any Error, listen: ListenAddress) -> String {
        let code = (error as? IOError)?.errnoCode
        switch code {
        case EADDRINUSE?:
            return "\(listen) is in use by another program: stop it, or choose another listen address"
        case EACCES?:
            return "cannot listen on \(listen): ports below 1024 need privileges; choose a port of 1024 or above"
        case EADDRNOTAVAIL?:
            return "cannot listen on \(listen): it is not an address of this machine; use 127.0.0.1 or one it has"
        default:
            return "cannot listen on \(listen): \(error)"
        }
    }
}

/// The endpoint could not listen: the address is taken, not local, or not permitted.
struct EndpointBindError: Error, CustomStringConvertible {
    var reason: String
    var description: String { reason }
}
