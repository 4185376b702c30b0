import Foundation
import HTTPEngine
import MonitorCore
import MonitorEvaluation
import Synchronization

/// Whether this process has the descriptors and memory a check needs: when it has not, a failed fetch is our
/// fault, not the origin's.
///
/// Idle local connections once used up every descriptor; libcurl then failed every connect and resolve, and each
/// domain turned `origin_broken` with `origin.connect` and a false `origin.bot_blocked`. libcurl 7.88 reports a
/// failed `socket()` as a plain `CURLE_COULDNT_CONNECT` without errno, so the process asks itself instead, after
/// any check with a failed fetch: can it open a socket, and are at least `margin` descriptors left? The daemon's
/// engine opens no socket below `margin` either (`HTTPFailure.descriptorShortage`), and such a refusal during a check
/// is noted as a fault even when the descriptors are back by the time the check ends.
package enum LocalResources {
    /// The process lacks resources now; the check that saw it is discarded.
    package struct Fault: Error, CustomStringConvertible, Sendable {
        package var reason: String
        package var description: String { reason }
    }

    /// Descriptors that must stay free for the check to count (a check uses up to about 4 at once), and the daemon's
    /// HTTP engine's `descriptorReserve`: below it, it opens no socket. The endpoint stops accepting earlier (its own
    /// reserve is twice this), so checks still run while local connections are held back.
    package static let margin = 16

    /// The last time a probe found this process short of resources.
    private static let lastFault = Mutex<Date?>(nil)

    /// Whether any fetch of `observation` failed: only then can a shortage of this process be behind it.
    package static func hasFailedFetch(_ observation: DomainObservation) -> Bool {
        let fetches =
            [observation.wellKnown]
            + [observation.wellKnownPlain, observation.root, observation.cdn]
            .compactMap { $0 }
        return fetches.contains { $0.failure != nil }
    }

    /// The last moment a probe found this process short of resources: a check that started before it and failed
    /// a fetch is discarded without firing `monitor.resources` again (the core decides).
    package static var lastShortage: Date? { lastFault.withLock { $0 } }

    /// Records that this process was short of resources at `date` (the latest such moment is kept).
    package static func noteFault(at date: Date) {
        lastFault.withLock { last in last = max(last ?? date, date) }
    }

    /// Tries to open a socket and counts the free descriptors.
    package static func probe() -> Fault? {
        let socketType = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        let descriptor = socket(AF_INET, socketType, 0)
        if descriptor < 0 {
            let code = errno
            switch code {
            case EMFILE:
                return Fault(reason: "this process has no file descriptor left (EMFILE, \(limitText))" + advice)
            case ENFILE: return Fault(reason: "the system has no file descriptor left (ENFILE)" + advice)
            case ENOMEM, ENOBUFS: return Fault(reason: "out of memory for sockets (\(String(cString: strerror(code))))")
            default: return nil
            }
        }
        close(descriptor)
        guard let limit = softLimit, let open = ProcessDescriptors.open(), limit - open < margin else { return nil }
        return Fault(reason: "only \(max(0, limit - open)) file descriptors are free (\(limitText))" + advice)
    }

    private static let advice =
        "; checks are discarded until it recovers: raise LimitNOFILE or find what holds descriptors (ls /proc/PID/fd)"

    /// The most the soft limit is raised to: some libraries size tables by it, and no daemon here needs more.
    package static let raisedLimitCeiling = 65_536

    /// Raises the soft descriptor limit to the hard one (at most `raisedLimitCeiling`), as a daemon that does not
    /// use `select(2)` should (systemd's default soft limit is 1024, its hard one 524288): more headroom before
    /// anything runs out. Returns the old and new soft limits when it changed them.
    package static func raiseSoftLimit() -> (from: Int, to: Int)? {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return nil }
        let target = min(limit.rlim_max, rlim_t(raisedLimitCeiling))
        guard limit.rlim_cur < target else { return nil }
        let old = limit.rlim_cur
        limit.rlim_cur = target
        guard setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return nil }
        return (Int(clamping: old), Int(clamping: target))
    }

    /// Descriptors this process can still open (`Int.max` without a limit), or `nil` when it cannot tell, which
    /// is itself a sign of none left (`ProcessDescriptors.free`).
    package static func freeDescriptors() -> Int? { ProcessDescriptors.free() }

    private static var softLimit: Int? {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max else { return nil }
        return Int(clamping: limit.rlim_cur)
    }

    private static var limitText: String { softLimit.map { "limit \($0)" } ?? "no limit" }
}
