internal import CCurl
internal import CurlShims
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An HTTP client that drives one libcurl multi handle on a thread of its own.
///
/// libcurl's easy and multi handles must never be used from two threads at once (libcurl-thread(3)), and a
/// blocking `curl_easy_perform` on Swift's cooperative pool would starve it. So the engine owns one thread that
/// loops `curl_multi_perform` → `curl_multi_info_read` → `curl_multi_poll`. Requests reach it through a
/// `Mutex`-guarded inbox plus `curl_multi_wakeup`, and results leave through continuations resumed on that thread.
/// All transfers share the multi handle's connection cache, so requests to one host reuse a connection and, over
/// HTTP/2, are multiplexed on it.
///
/// Thread-confinement invariant (why this is `@unchecked Sendable`): `loop` and every `CURL*`/`CURLM*` handle are
/// touched only on the engine's thread, after `init` hands them over. Other threads touch only `inbox` (under its
/// lock), `nextID` (atomic) and call `curl_multi_wakeup`, which libcurl allows from any thread, and only while
/// the inbox is not `closed` (checked under the same lock the loop holds while closing it).
///
/// Shut the engine down explicitly with `shutdown()`, or use `withCurlEngine`: it fails in-flight requests,
/// cleans up libcurl and lets the thread exit before the process does (OpenSSL 3 exit race,
/// swiftlang/swift-corelibs-foundation#5469).
public final class CurlEngine: @unchecked Sendable {
    /// Tunables that apply to every request.
    public struct Configuration: Sendable, Hashable {
        /// The most transfers in the multi handle at once; more wait in the engine's queue.
        public var maxConcurrentTransfers: Int
        /// The most connections libcurl keeps in its cache (`CURLMOPT_MAXCONNECTS`), those in use included; beyond
        /// it, idle ones are closed, oldest first. libcurl's default of 4× the added handles costs a syscall per cached connection on every
        /// new transfer, and it walks the whole cache whenever a transfer ends.
        public var maxIdleConnections: Int
        /// The most connections to one host (`CURLMOPT_MAX_HOST_CONNECTIONS`); 0 means no limit.
        public var maxConnectionsPerHost: Int
        /// File descriptors the engine leaves free: it opens no socket while fewer would stay free, and the request
        /// fails with `HTTPFailure.descriptorShortage` set. 0 (the default) checks nothing. A process out of
        /// descriptors is worse off than one without a check: its runtime traps when it cannot open a file.
        public var descriptorReserve: Int

        /// Creates a configuration; `maxIdleConnections` defaults to `maxConcurrentTransfers`.
        public init(
            maxConcurrentTransfers: Int = 64, maxIdleConnections: Int? = nil, maxConnectionsPerHost: Int = 0,
            descriptorReserve: Int = 0
        ) {
            self.maxConcurrentTransfers = max(1, maxConcurrentTransfers)
            self.maxIdleConnections = max(1, maxIdleConnections ?? maxConcurrentTransfers)
            self.maxConnectionsPerHost = max(0, maxConnectionsPerHost)
            self.descriptorReserve = max(0, descriptorReserve)
        }
    }

    private let inbox = Mutex(Inbox())
    private let nextID = Atomic<UInt64>(1)
    private let threadState = Mutex(ThreadState())
    /// Confined to the engine thread (see the type's invariant).
    private let loop: TransferLoop
    /// Kept for `curl_multi_wakeup` only; owned and cleaned up by `loop`.
    private let multi: UnsafeMutableRawPointer

    private struct ThreadState {
        var thread: pthread_t?
        var joined = false
    }

    /// Initialises libcurl, creates the multi handle and starts the engine's thread.
    public init(configuration: Configuration = Configuration()) throws(HTTPEngineError) {
        let initCode = aasa_curl_global_init()
        guard initCode == CURLE_OK else {
            throw HTTPEngineError(
                code: .initialization, url: nil,
                message: "curl_global_init failed: \(String(cString: curl_easy_strerror(initCode)))")
        }
        guard let multi = curl_multi_init() else {
            aasa_curl_global_cleanup()
            throw HTTPEngineError(code: .initialization, url: nil, message: "curl_multi_init failed")
        }
        self.multi = multi
        self.loop = TransferLoop(multi: multi, configuration: configuration)
        try startThread()
    }

    /// Performs one request.
    ///
    /// - Returns: the response, whatever its status code (a 3xx is not followed, see `HTTPResponse.redirectURL`).
    /// - Throws: `HTTPFailure` for a classified network, TLS, timeout or size failure; `HTTPEngineError` when the
    ///   engine is shut down or the request is malformed; `CancellationError` when the calling task is cancelled
    ///   (the transfer is removed and its connection closed).
    public func perform(_ request: HTTPRequest) async throws -> HTTPResponse {
        let ticket = TransferTicket(id: nextID.wrappingAdd(1, ordering: .relaxed).oldValue, request: request)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                guard ticket.attach(continuation) else { return }
                submit(ticket)
            }
        } onCancel: {
            cancel(ticket)
        }
    }

    /// Stops the engine: refuses new requests, fails in-flight and queued ones with `HTTPEngineError.shutDown`,
    /// cleans up libcurl and waits for the engine's thread to exit. Safe to call more than once.
    public func shutdown() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = inbox.withLock { inbox -> Bool in
                if inbox.finished { return true }
                inbox.shutdownWaiters.append(continuation)
                if !inbox.shutdownRequested {
                    inbox.shutdownRequested = true
                    curl_multi_wakeup(multi)
                }
                return false
            }
            if done { continuation.resume() }
        }
        joinThread()
    }

    private func submit(_ ticket: TransferTicket) {
        let accepted = inbox.withLock { inbox -> Bool in
            guard !inbox.closed && !inbox.shutdownRequested else { return false }
            inbox.submissions.append(ticket)
            if inbox.submissions.count == 1 { curl_multi_wakeup(multi) }
            return true
        }
        if !accepted {
            ticket.finish(.failure(HTTPEngineError.engineShutDown(url: ticket.request.url)))
        }
    }

    private func cancel(_ ticket: TransferTicket) {
        guard ticket.requestCancellation() else { return }
        inbox.withLock { inbox in
            guard !inbox.closed else { return }
            inbox.cancellations.append(ticket.id)
            curl_multi_wakeup(multi)
        }
    }

    /// The body of the engine's thread.
    private func runLoop() {
        loop.run { inbox.withLock { $0.drain() } }
        let waiters = inbox.withLock { inbox in
            inbox.finished = true
            defer { inbox.shutdownWaiters.removeAll() }
            return inbox.shutdownWaiters
        }
        for waiter in waiters { waiter.resume() }
    }

    private func startThread() throws(HTTPEngineError) {
        let body = Unmanaged.passRetained(ThreadBody { [self] in runLoop() }).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(
            &thread, nil,
            { raw in
                guard let raw else { return nil }
                Unmanaged<ThreadBody>.fromOpaque(raw).takeRetainedValue().run()
                return nil
            }, body)
        guard result == 0 else {
            Unmanaged<ThreadBody>.fromOpaque(body).release()
            loop.cleanUp()
            throw HTTPEngineError(code: .initialization, url: nil, message: "pthread_create failed: \(result)")
        }
        threadState.withLock { $0.thread = thread }
    }

    /// Joins the finished thread. The loop has already signalled completion as its last act, so this waits at
    /// most for the thread's return, never for network work.
    private func joinThread() {
        let thread = threadState.withLock { state -> pthread_t? in
            guard !state.joined else { return nil }
            state.joined = true
            return state.thread
        }
        if let thread { pthread_join(thread, nil) }
    }
}

/// Carries the thread's closure through `pthread_create`'s untyped argument.
private final class ThreadBody {
    let run: () -> Void
    init(_ run: @escaping () -> Void) { self.run = run }
}

extension HTTPEngineError {
    static func engineShutDown(url: String) -> HTTPEngineError {
        HTTPEngineError(code: .shutDown, url: url, message: "the HTTP engine was shut down")
    }
}

/// Runs `body` with a new engine and always shuts the engine down afterwards, on success and on error.
public func withCurlEngine<Result>(
    configuration: CurlEngine.Configuration = CurlEngine.Configuration(),
    _ body: (CurlEngine) async throws -> Result
) async throws -> Result {
    let engine = try CurlEngine(configuration: configuration)
    do {
        let result = try await body(engine)
        await engine.shutdown()
        return result
    } catch {
        await engine.shutdown()
        throw error
    }
}
