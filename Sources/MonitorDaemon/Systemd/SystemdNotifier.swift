import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Tells systemd about the daemon's state over the `sd_notify` protocol: `READY=1`, `STATUS=…`, `RELOADING=1`,
/// `STOPPING=1` and the `WATCHDOG=1` keep-alive.
///
/// The protocol is one datagram of newline-separated `KEY=value` lines sent to the `AF_UNIX` socket named by
/// `NOTIFY_SOCKET` — a file system path, or an abstract socket when it starts with `@` (sd_notify(3)). It is written
/// here by hand, in about forty lines, because no Swift library for it is in the package mirror and libsystemd's
/// `sd_notify` would add a C dependency for one `sendto`.
///
/// When `NOTIFY_SOCKET` is unset (started from a shell, in tests) every call does nothing, so callers need no
/// `if systemd` branches. A failed send throws `SystemdNotifyError`, which the caller logs and otherwise ignores:
/// losing a status line must never stop monitoring.
///
/// ```swift
/// let notifier = SystemdNotifier()
/// try notifier.send(.ready, .status("watching 12 domains"))
/// if let period = notifier.watchdogInterval { /* send .watchdog every `period` while making progress */ }
/// ```
package struct SystemdNotifier: Sendable {
    /// Where `NOTIFY_SOCKET` points.
    enum Destination: Sendable, Hashable {
        case path(String)
        case abstract(String)
        /// A form this implementation does not speak (for example `vsock:`), kept to name it in the error.
        case unsupported(String)
    }

    let destination: Destination?

    /// How often to send `.watchdog`: half of systemd's `WATCHDOG_USEC`, as sd_watchdog_enabled(3) recommends, or
    /// `nil` when the watchdog is off or meant for another process (`WATCHDOG_PID` is not ours).
    package let watchdogInterval: Duration?

    /// Reads `NOTIFY_SOCKET`, `WATCHDOG_USEC` and `WATCHDOG_PID` from the given environment.
    package init(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        processID: Int32 = getpid()
    ) {
        destination = environment["NOTIFY_SOCKET"].flatMap(Self.destination(parsing:))
        watchdogInterval = Self.watchdogInterval(environment: environment, processID: processID)
    }

    /// Whether there is a systemd to talk to; when `false`, `send` does nothing.
    package var isEnabled: Bool { destination != nil }

    /// Sends the notifications in one datagram, so systemd sees them together (for example `STATUS` with `READY`).
    package func send(_ notifications: SystemdNotification...) throws(SystemdNotifyError) {
        try send(notifications)
    }

    /// Sends the notifications in one datagram; does nothing when `NOTIFY_SOCKET` is unset or the list is empty.
    package func send(_ notifications: [SystemdNotification]) throws(SystemdNotifyError) {
        guard let destination, !notifications.isEmpty else { return }
        let lines = notifications.flatMap { $0.assignments(monotonicMicroseconds: Self.monotonicMicroseconds) }
        try DatagramSender.send(Array((lines.joined(separator: "\n") + "\n").utf8), to: destination)
    }

    static func destination(parsing value: String) -> Destination? {
        if value.isEmpty { return nil }
        if value.hasPrefix("/") { return .path(value) }
        if value.hasPrefix("@") { return .abstract(String(value.dropFirst())) }
        return .unsupported(value)
    }

    static func watchdogInterval(environment: [String: String], processID: Int32) -> Duration? {
        guard let text = environment["WATCHDOG_USEC"], let microseconds = UInt64(text), microseconds > 0 else {
            return nil
        }
        if let pidText = environment["WATCHDOG_PID"], Int32(pidText) != processID { return nil }
        return .microseconds(Int64(clamping: microseconds / 2))
    }

    /// `CLOCK_MONOTONIC` in microseconds, the clock systemd compares `MONOTONIC_USEC` against.
    ///
    /// Foundation's `systemUptime` reads exactly that clock on Linux (`CFGetSystemUptime`); calling
    /// `clock_gettime` here instead would need `timespec`, which this module sees through SwiftNIO's C shim.
    static func monotonicMicroseconds() -> UInt64 {
        UInt64(max(0, ProcessInfo.processInfo.systemUptime * 1_000_000))
    }
}
