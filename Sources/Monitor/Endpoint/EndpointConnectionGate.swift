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
struct EndpointConnectionGate: AvailableConnectionsDelegate {
    let maximumConnections: Int
    let descriptorReserve: Int
    /// Descriptors the process can still open (`nil`: it cannot tell, taken as none).
    let freeDescriptors: @Sendable () -> Int?
    let pauses: PauseLog
    private(set) var openConnections = 0

    init(
        maximumConnections: Int, descriptorReserve: Int, logger: Logger,
        freeDescriptors: @escaping @Sendable () -> Int? = LocalResources.freeDescriptors
    ) {
        self.maximumConnections = maximumConnections
        self.descriptorReserve = descriptorReserve
        self.freeDescriptors = freeDescriptors
        self.pauses = PauseLog(logger: logger)
    }

    mutating func connectionOpened() { openConnections += 1 }

    mutating func connectionClosed() { openConnections -= 1 }

    func isAcceptingNewConnections() -> Bool {
        guard openConnections < maximumConnections else { return false }
        guard openConnections > 0, descriptorReserve > 0 else { return true }
        let free = freeDescriptors() ?? 0
        let accepting = free >= descriptorReserve
        pauses.note(accepting: accepting, free: free, reserve: descriptorReserve, open: openConnections)
        return accepting
    }

    /// Logs when the gate starts and stops holding connections back for want of descriptors, once each time.
    final class PauseLog: Sendable {
        private let logger: Logger
        private let paused = Mutex(false)

        init(logger: Logger) { self.logger = logger }

        func note(accepting: Bool, free: Int, reserve: Int, open: Int) {
            let changed = paused.withLock { paused in
                defer { paused = !accepting }
                return paused == accepting
            }
            guard changed else { return }
            if accepting {
                logger.notice("endpoint accepting connections again", metadata: ["free_descriptors": "\(free)"])
            } else {
                logger.warning(
                    "endpoint holds new connections back: the process keeps \(reserve) file descriptors free",
                    metadata: ["free_descriptors": "\(free)", "connections": "\(open)"])
            }
        }
    }
}
