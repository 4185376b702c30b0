import EndToEndSlot
import Foundation
import GRDB
import HTTPEngine
import MonitorDaemon
import TestSupport
import Testing

/// The real daemon when its state database fails under it: a lock held elsewhere, the file deleted.
@Suite("daemon store faults", .serialized, .timeLimit(.minutes(10)), .endToEndSlot)
struct StoreFaultTests {
    static let domain = "shop.origin.test"

    /// The endpoint address the daemon logged.
    static func address(_ daemon: RunningMonitor) throws -> String {
        let line = try #require(daemon.standardError.split(separator: "\n").first { $0.contains("endpoint listening") })
        return String(try #require(line.split(separator: " ").first { $0.hasPrefix("address=") }?.dropFirst(8)))
    }

    @Test("/healthz is 503 naming monitor.store while the database cannot commit, and 200 again once it can")
    func lockedStore() async throws {
        let fixture = try DaemonFixture()
        try await fixture.withServers(domains: [Self.domain]) { origin, cdn, _, ca in
            try fixture.writeConfiguration(domains: [Self.domain], origin: origin, cdn: cdn, caFile: ca)
            let notify = try NotifySocket.bound()
            var environment = ProcessInfo.processInfo.environment
            environment["NOTIFY_SOCKET"] = notify.environmentValue
            let daemon = try RunningMonitor(
                arguments: ["run", "--config", fixture.configPath, "--log-level", "debug"], environment: environment)
            try await eventually("a first check", log: daemon) { try await DaemonTests.checks(fixture).count >= 1 }
            let address = try Self.address(daemon)
            try await withCurlEngine { engine in
                func health() async throws -> (Int, String) {
                    let response = try await engine.perform(
                        HTTPRequest(url: "http://\(address)/healthz", httpsOnly: false))
                    return (response.status, String(decoding: response.body, as: UTF8.self))
                }
                #expect(try await health().0 == 200)
                // Another process holds the write lock: every commit of the daemon times out (SQLITE_BUSY).
                var configuration = Configuration()
                configuration.allowsUnsafeTransactions = true
                let holder = try DatabaseQueue(
                    path: fixture.stateDirectory + "/aasa-monitor.sqlite", configuration: configuration)
                try await holder.writeWithoutTransaction { db in try db.execute(sql: "BEGIN IMMEDIATE") }
                try await eventually("/healthz 503 for the store", timeout: .seconds(60), log: daemon) {
                    let (status, body) = try await health()
                    return status == 503 && body.contains("monitor.store") && body.contains("locked")
                }
                try await eventually("systemd's STATUS= names monitor.store", log: daemon) {
                    while let message = notify.receive(within: 100) {
                        if message.contains("STATUS=") && message.contains("monitor.store") { return true }
                    }
                    return false
                }
                try await holder.writeWithoutTransaction { db in try db.execute(sql: "ROLLBACK") }
                try await eventually("/healthz 200 again", timeout: .seconds(60), log: daemon) {
                    try await health().0 == 200
                }
                try await eventually("monitor.store recorded with its resolution", log: daemon) {
                    daemon.standardError.contains("monitor.resolved") && daemon.standardError.contains("monitor.store")
                }
                try holder.close()
            }
            daemon.send(SIGTERM)
            #expect(try await daemon.waitForExit() == 0)
        }
    }

    @Test("a database deleted under the daemon is re-created from the open copy; no alert is sent again as new")
    func deletedDatabase() async throws {
        let fixture = try DaemonFixture()
        try await fixture.withServers(domains: [Self.domain]) { origin, cdn, receiver, ca in
            let daemon = try WebhookEndToEndTests.startBroken(
                fixture, origin: origin, cdn: cdn, receiver: receiver, caFile: ca)
            try await eventually("origin.status firing delivered", log: daemon) {
                !WebhookEndToEndTests.deliveries(receiver, type: "alert.firing", code: "origin.status").isEmpty
            }
            let before = try await DaemonTests.checks(fixture).count
            let file = fixture.stateDirectory + "/aasa-monitor.sqlite"
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file + suffix) }
            #expect(try await daemon.waitForExit() == 1)
            #expect(daemon.standardError.contains("was deleted under the running daemon"), "\(daemon.standardError)")
            #expect(daemon.standardError.contains("re-created from the open copy"))
            // The re-created file has the history written before and after the deletion.
            #expect(try await DaemonTests.checks(fixture).count >= before)

            let restored = try await DaemonTests.checks(fixture).count
            let restarted = try fixture.startDaemon()
            try await eventually("checks after the restart land on the kept history", log: restarted) {
                guard restarted.standardError.contains("NOTICE aasa-monitor: ready") else { return false }
                return try await DaemonTests.checks(fixture).count >= restored + 2
            }
            restarted.send(SIGTERM)
            let status = try await restarted.waitForExit()
            #expect(status == 0, "\(restarted.standardError)")
            let queue = try DatabaseQueue(path: file)
            let firings = try await queue.read { db in
                try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM outbox WHERE CAST(event_json AS TEXT) LIKE '%\"alert.firing\"%'")
            }
            #expect(firings == 1)
            // Sent again as new would be a second webhook-id; the same id again is at-least-once delivery (a
            // delivery in flight when the daemon exited goes out again after the restart), which receivers drop.
            let sent = WebhookEndToEndTests.deliveries(receiver, type: "alert.firing", code: "origin.status")
            #expect(Set(sent.map(\.id)).count == 1, "\(sent.map(\.id))")
        }
    }
}

extension StoreFaultTests {
    /// Makes `path` unwritable for this process: `chattr +i` as root (mode bits do not bind root), else mode 0444.
    /// Returns the command that undoes it, or `nil` when it could not be done here.
    static func makeUnwritable(_ path: String) async throws -> [String]? {
        if geteuid() != 0 {
            try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: path)
            return ["/bin/chmod", "0644", path]
        }
        let chattr = try await MonitorBinary.run(["+i", path], binary: "/usr/bin/chattr")
        return chattr.status == 0 ? ["/usr/bin/chattr", "-i", path] : nil
    }

    @Test("an unwritable database file stops the start with exit 2 and a message naming the fix")
    func unwritableDatabase() async throws {
        let fixture = try DaemonFixture()
        try await fixture.withServers(domains: [Self.domain]) { origin, cdn, _, ca in
            try fixture.writeConfiguration(domains: [Self.domain], origin: origin, cdn: cdn, caFile: ca)
            let first = try fixture.startDaemon()
            try await eventually("a first check", log: first) { try await DaemonTests.checks(fixture).count >= 1 }
            first.send(SIGTERM)
            #expect(try await first.waitForExit() == 0)
            let file = fixture.stateDirectory + "/aasa-monitor.sqlite"
            let undo = try #require(
                try await Self.makeUnwritable(file), "neither chattr +i (as root) nor chmod can make the file read-only"
            )
            let refused = try await MonitorBinary.run(["run", "--config", fixture.configPath])
            _ = try await MonitorBinary.run(Array(undo.dropFirst()), binary: undo[0])
            #expect(refused.status == 2)
            #expect(
                refused.error.contains("cannot write the state database file \(file)"), "\(refused.error)")
            #expect(refused.error.contains(geteuid() == 0 ? "chattr -i" : "chmod u+w"), "\(refused.error)")
            let again = try fixture.startDaemon()
            try await eventually("checks recorded once the file is writable", log: again) {
                try await DaemonTests.checks(fixture).count >= 2
            }
            again.send(SIGTERM)
            #expect(try await again.waitForExit() == 0)
        }
    }

    /// Issue 23 item 3: what a from-source run as root leaves for the service user.
    @Test(
        "database files owned by root, opened by another user, stop the start with exit 2 naming file, owner and fix",
        .enabled(if: geteuid() == 0, "needs root to leave root-owned files and run as another user (setpriv)"))
    func rootOwnedDatabase() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("aasa-owned-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let state = directory + "/state"
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        let config = directory + "/config.yml"
        try "domains: []\n".write(toFile: config, atomically: true, encoding: .utf8)
        // The run as root: a database with its -wal and -shm files, root-owned, mode 0644.
        let asRoot = try RunningMonitor(arguments: ["run", "--config", config, "--state-dir", state])
        try await asRoot.waitForLog("aasa-monitor: ready")
        asRoot.send(SIGTERM)
        #expect(try await asRoot.waitForExit() == 0)
        // The other user may write the directory (as the service user may write its state directory), not the files.
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory)
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: state)
        let refused = try await MonitorBinary.run(
            [
                "--reuid=65534", "--regid=65534", "--clear-groups", MonitorBinary.url.path, "run", "--config", config,
                "--state-dir", state,
            ], binary: "/usr/bin/setpriv")
        #expect(refused.status == 2, "\(refused.error)")
        let user = try #require(getpwuid(65534).map { String(cString: $0.pointee.pw_name) })
        #expect(
            refused.error.contains("cannot write the state database file \(state)/aasa-monitor.sqlite"),
            "\(refused.error)")
        #expect(refused.error.contains("owner root:root, mode 0644"), "\(refused.error)")
        #expect(refused.error.contains("as user \(user): run `chown -R \(user): \(state)` as root"), "\(refused.error)")
    }
}
