import Logging

extension SystemdNotifier {
    /// Sends the notifications and logs a failure as a warning instead of throwing: the daemon's normal way to
    /// notify, since a lost status line must never stop monitoring.
    package func send(_ notifications: SystemdNotification..., reportingFailuresTo logger: Logger) {
        do {
            try send(notifications)
        } catch {
            logger.warning("could not notify systemd", metadata: ["error": "\(error)"])
        }
    }
}
