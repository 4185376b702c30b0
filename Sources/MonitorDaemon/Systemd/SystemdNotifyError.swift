/// Why a notification could not reach systemd; reported (logged), never fatal: the daemon works without systemd.
package struct SystemdNotifyError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The socket named by `NOTIFY_SOCKET`, as given.
    package var socket: String
    /// The failed step, for example `socket`, `sendto` or `address`.
    package var operation: String
    /// The `errno` value, or 0 when the failure is not a system call's.
    package var errno: Int32
    /// What went wrong, in words.
    package var message: String

    package var description: String {
        "sd_notify to \(socket) failed in \(operation): \(message)" + (errno == 0 ? "" : " (errno \(errno))")
    }
}
