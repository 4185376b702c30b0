/// One state change the daemon reports to systemd through `sd_notify` (sd_notify(3), "Well-known assignments").
package enum SystemdNotification: Sendable, Hashable {
    /// Start-up is finished; with `Type=notify`, systemd considers the unit started only now.
    case ready
    /// A one-line, human-readable status that `systemctl status` shows.
    case status(String)
    /// The daemon has begun to shut down.
    case stopping
    /// The daemon is reloading its configuration; send `.ready` when done.
    ///
    /// systemd 253+ wants the `CLOCK_MONOTONIC` time of the reload start alongside (`MONOTONIC_USEC=`), so it can
    /// tell this reload from an earlier one; `SystemdNotifier` adds it.
    case reloading
    /// The watchdog keep-alive: the daemon is alive and making progress.
    case watchdog

    /// The `KEY=value` line for this notification.
    ///
    /// A status text is a single line in the protocol: line breaks in it are replaced by spaces, so a hostile or
    /// careless text cannot inject a second assignment such as `READY=1`.
    func assignments(monotonicMicroseconds: () -> UInt64) -> [String] {
        switch self {
        case .ready: ["READY=1"]
        case .status(let text):
            ["STATUS=" + String(text.map { $0.isNewline ? " " : $0 })]
        case .stopping: ["STOPPING=1"]
        case .reloading: ["RELOADING=1", "MONOTONIC_USEC=\(monotonicMicroseconds())"]
        case .watchdog: ["WATCHDOG=1"]
        }
    }
}
