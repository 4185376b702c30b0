import Foundation
import MonitorDaemon
import Testing

@Suite("systemd notifications")
struct SystemdNotifierTests {
    @Test("sends READY with a status in one datagram to a socket path")
    func readyToPath() throws {
        let socket = try NotifySocket.bound()
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": socket.environmentValue])
        #expect(notifier.isEnabled)
        try notifier.send(.ready, .status("watching 2 domains"))
        #expect(socket.receive() == "READY=1\nSTATUS=watching 2 domains\n")
    }

    @Test("reaches an abstract socket named with a leading @")
    func abstractSocket() throws {
        let socket = try NotifySocket.abstract()
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": socket.environmentValue])
        try notifier.send(.watchdog)
        #expect(socket.receive() == "WATCHDOG=1\n")
        try notifier.send(.stopping)
        #expect(socket.receive() == "STOPPING=1\n")
    }

    @Test("marks a reload with the monotonic time systemd asks for")
    func reloading() throws {
        let socket = try NotifySocket.bound()
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": socket.environmentValue])
        try notifier.send(.reloading)
        let message = try #require(socket.receive())
        let lines = message.split(separator: "\n")
        #expect(lines.first == "RELOADING=1")
        let stamp = try #require(lines.last?.split(separator: "=", maxSplits: 1))
        #expect(stamp.first == "MONOTONIC_USEC")
        #expect(UInt64(try #require(stamp.last)).map { $0 > 0 } == true)
    }

    @Test("keeps a status on one line so it cannot inject another assignment")
    func statusOnOneLine() throws {
        let socket = try NotifySocket.bound()
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": socket.environmentValue])
        try notifier.send(.status("bad\nREADY=1"))
        #expect(socket.receive() == "STATUS=bad READY=1\n")
    }

    @Test("does nothing without NOTIFY_SOCKET")
    func disabled() throws {
        let notifier = SystemdNotifier(environment: [:])
        #expect(!notifier.isEnabled)
        #expect(notifier.watchdogInterval == nil)
        try notifier.send(.ready)
    }

    @Test("reports a socket nobody listens on as an error, not a crash")
    func missingSocket() {
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": "/nonexistent/aasa-monitor/notify.sock"])
        #expect(throws: SystemdNotifyError.self) { try notifier.send(.ready) }
    }

    @Test("refuses a NOTIFY_SOCKET form it does not speak")
    func unsupportedForm() {
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": "vsock:2:1234"])
        #expect(notifier.isEnabled)
        #expect(throws: SystemdNotifyError.self) { try notifier.send(.ready) }
    }

    @Test(
        "takes half of WATCHDOG_USEC as the keep-alive period, only for its own process",
        arguments: [
            (["WATCHDOG_USEC": "60000000"], Duration?.some(.seconds(30))),
            (["WATCHDOG_USEC": "60000000", "WATCHDOG_PID": "4242"], Duration?.some(.seconds(30))),
            (["WATCHDOG_USEC": "60000000", "WATCHDOG_PID": "4243"], nil),
            (["WATCHDOG_USEC": "0"], nil),
            (["WATCHDOG_USEC": "soon"], nil),
            ([:], nil),
        ] as [([String: String], Duration?)])
    func watchdogInterval(environment: [String: String], expected: Duration?) {
        #expect(SystemdNotifier(environment: environment, processID: 4242).watchdogInterval == expected)
    }
}
