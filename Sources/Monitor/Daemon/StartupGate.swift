import Foundation
import MonitorCore
import MonitorEndpoint
import NIOCore
import ServiceLifecycle
import Synchronization

/// Holds the daemon's `READY=1` until every part that can fail at start is up: the endpoint's listening socket in
/// particular, which is bound inside the service group. Opened once, or failed once; waiters learn which.
final class StartupGate: Sendable {
    private struct State {
        var outcome: Bool?
        var failure: String?
        var waiters: [CheckedContinuation<Bool, Never>] = []
    }

    private let state = Mutex(State())

    /// A gate that is already open, for a daemon without an endpoint.
    static func open() -> StartupGate {
        let gate = StartupGate()
        gate.finish(true)
        return gate
    }

    /// Everything is up.
    func open() { finish(true) }

    /// Start-up failed; `reason` names what and where (`cannot listen on 127.0.0.1:9464: …`).
    func fail(_ reason: String) {
        state.withLock { if $0.outcome == nil { $0.failure = reason } }
        finish(false)
    }

    /// Whether the gate was opened.
    var isOpen: Bool { state.withLock { $0.outcome == true } }

    /// Why start-up failed, if it did.
    var failure: String? { state.withLock { $0.failure } }

    /// Waits until the gate is opened (true) or failed (false).
    func wait() async -> Bool {
        await withCheckedContinuation { continuation in
            let outcome: Bool? = state.withLock { state in
                if state.outcome == nil { state.waiters.append(continuation) }
                return state.outcome
            }
            if let outcome { continuation.resume(returning: outcome) }
        }
    }

    private func finish(_ outcome: Bool) {
        let waiters = state.withLock { state -> [CheckedContinuation<Bool, Never>] in
            guard state.outcome == nil else { return [] }
            state.outcome = outcome
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: outcome) }
    }
}

/// The endpoint as the daemon runs it: it opens the start-up gate once its socket is bound, and turns a failure
/// to bind into an error that names the address.
struct GatedEndpoint: Service, CustomStringConvertible {
    let endpoint: @Sendable (@escaping @Sendable (ListenAddress) async -> Void) -> MonitorEndpoint
    let listen: ListenAddress
    let gate: StartupGate

    func run() async throws {
        let gate = gate
        do {
            try await endpoint({ _ in gate.open() }).run()
        } catch {
            if gate.isOpen { throw error }
            let reason = Self.bindFailure(error, listen: listen)
            gate.fail(reason)
            throw EndpointBindError(reason: reason)
        }
        gate.fail("the endpoint on \(listen) stopped before it was listening")
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
