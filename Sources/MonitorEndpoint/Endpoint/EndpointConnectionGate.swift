import HTTPEngine
import HummingbirdCore
import Logging
import Synchronization

/// Whether the endpoint accepts another connection: fewer than `maximumConnections` are open, and the process
/// keeps `descriptorReserve` file descriptors free for everything else.
///
/// A process out of descriptors is not just unable to check: libdispatch (the Swift runtime's thread pool on
/// Linux) opens `/proc/TID/stat` every second to size its pool, and traps when that `open` fails (SIGILL,
/// "workq: registered worker exited prematurely", swift-corelibs-libdispatch `src/event/workqueue.c`). Idle local
/// connections once used up the last descriptors and the daemon died that way (issue 26 §1). Connections the
/// endpoint does not accept wait in the kernel's listen backlog, which costs the process no descriptor.
///
/// Hummingbird asks again only when one of the endpoint's own connections closes, so with none open the gate always
/// accepts: otherwise a listener paused while checks held the descriptors would never resume.
///
/// A struct Hummingbird copies into its listener's handler; what the connections' own handlers also read (whether
/// the endpoint is busy) lives in the shared `EndpointLoad`.
struct EndpointConnectionGate: AvailableConnectionsDelegate {
    let load: EndpointLoad

    init(load: EndpointLoad) { self.load = load }

    mutating func connectionOpened() { load.opened() }

    mutating func connectionClosed() { load.closed() }

    func isAcceptingNewConnections() -> Bool { load.isAccepting() }
}

/// The endpoint's open connections and the process's free descriptors, shared by the gate (on the listener's event
/// loop) and every connection's `EndpointConnectionHandler` (on its own).
///
/// **Busy**: at least half the slots are taken, a slot being a connection open or one the gate would still accept
/// (fewer than `maximumConnections`, and no further into the descriptor reserve). While busy, a connection without a
/// request under way is closed after `busyIdleTimeout` rather than the usual `idleTimeout` (nginx's
/// `client_header_timeout`): idle connections reopened as fast as they are closed once held every slot for 30 s, and
/// `/healthz` waited behind them in the listen backlog (issue 32 §2).
///
/// **Counting, not listing**: free descriptors are counted from `/proc/self/fd` at most once a second while plenty
/// are free; in between the gate subtracts the connections it accepted since. Near the reserve (fewer than twice it
/// estimated free) every decision counts afresh, so the reserve itself is never judged from an old count.
final class EndpointLoad: Sendable {
    let maximumConnections: Int
    let descriptorReserve: Int
    let busyIdleTimeout: Duration
    /// Descriptors the process can still open (`nil`: it cannot tell, taken as none).
    private let freeDescriptors: @Sendable () -> Int?
    private let now: @Sendable () -> ContinuousClock.Instant
    private let logger: Logger
    private let state = Mutex(State())

    /// How long a count of free descriptors is used (adjusted by the gate's own connections) while plenty are free.
    static let recountInterval: Duration = .seconds(1)
    /// The shortest time between two log lines about closed idle connections: under a flood they close by hundreds.
    static let shedLogInterval: Duration = .seconds(10)

    private struct State {
        var open = 0
        var busy = false
        var paused = false
        /// The last count of free descriptors, and how many connections were open when it was taken.
        var counted: (free: Int, open: Int, at: ContinuousClock.Instant)?
        var shed = 0
        var shedLoggedAt: ContinuousClock.Instant?
    }

    init(
        limits: EndpointLimits, logger: Logger,
        freeDescriptors: @escaping @Sendable () -> Int? = ProcessDescriptors.free,
        now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }
    ) {
        self.maximumConnections = limits.maximumConnections
        self.descriptorReserve = limits.descriptorReserve
        self.busyIdleTimeout = limits.busyIdleTimeout
        self.freeDescriptors = freeDescriptors
        self.now = now
        self.logger = logger
    }

    /// Connections open now.
    var openConnections: Int { state.withLock { $0.open } }

    /// Whether at least half the slots are taken: idle connections are then closed after `busyIdleTimeout`.
    var isBusy: Bool { state.withLock { $0.busy } }

    func opened() {
        state.withLock { state in
            state.open += 1
            _ = decide(&state)
        }
    }

    func closed() {
        state.withLock { state in
            state.open -= 1
            _ = decide(&state)
        }
    }

    func isAccepting() -> Bool {
        let (accepting, free, open, change) = state.withLock { state in
            let wasPaused = state.paused
            let (accepting, free) = decide(&state)
            // Only a refusal for want of descriptors is a pause worth a log line; the connection limit is not.
            if free != nil { state.paused = !accepting }
            return (accepting, free, state.open, wasPaused != state.paused)
        }
        if change, let free { logPause(accepting: accepting, free: free, open: open) }
        return accepting
    }

    /// A connection's handler closed it while busy; logged as a count, at most once per `shedLogInterval`.
    func noteShed() {
        let logged = state.withLock { state -> (count: Int, open: Int)? in
            state.shed += 1
            let time = now()
            if let last = state.shedLoggedAt, time - last < Self.shedLogInterval { return nil }
            defer {
                state.shed = 0
                state.shedLoggedAt = time
            }
            return (state.shed, state.open)
        }
        guard let logged else { return }
        let message =
            "endpoint busy: closed \(logged.count) connections that sent no request within \(busyIdleMilliseconds) ms; "
            + "clients must send their request at once while half of its \(maximumConnections) connections are taken"
        logger.notice(
            "\(message)",
            metadata: ["connections": "\(logged.open)"])
    }

    private var busyIdleMilliseconds: Int64 {
        let (seconds, attoseconds) = busyIdleTimeout.components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }

    /// Whether to accept, and the free descriptors counted for it (`nil` when none were needed); updates `busy`.
    private func decide(_ state: inout State) -> (accepting: Bool, free: Int?) {
        let open = state.open
        guard open < maximumConnections else {
            state.busy = true
            return (false, nil)
        }
        guard open > 0 else {
            state.busy = false
            return (true, nil)
        }
        guard descriptorReserve > 0 else {
            state.busy = open >= maximumConnections - open
            return (true, nil)
        }
        let free = freeDescriptors(&state)
        state.busy = open >= min(maximumConnections - open, free - descriptorReserve)
        return (free >= descriptorReserve, free)
    }

    /// Free descriptors: the last count less the connections opened since, or a fresh count when that one is old or
    /// the estimate comes near the reserve.
    private func freeDescriptors(_ state: inout State) -> Int {
        let time = now()
        if let counted = state.counted, time - counted.at < Self.recountInterval {
            let estimate = counted.free - (state.open - counted.open)
            if estimate >= 2 * descriptorReserve { return estimate }
        }
        let free = freeDescriptors() ?? 0
        state.counted = (free, state.open, time)
        return free
    }

    private func logPause(accepting: Bool, free: Int, open: Int) {
        if accepting {
            logger.notice("endpoint accepting connections again", metadata: ["free_descriptors": "\(free)"])
        } else {
            logger.warning(
                "endpoint holds new connections back: the process keeps \(descriptorReserve) file descriptors free",
                metadata: ["free_descriptors": "\(free)", "connections": "\(open)"])
        }
    }
}
