import Foundation
import MonitorEvaluation
import Synchronization

/// A throwaway PostgreSQL 15 server for this test process: `initdb` in a temporary directory as an unprivileged
/// user (initdb refuses root, and CI runs as root), a free port on loopback, `fsync=off`, password authentication
/// (so a test can look for the password in what the code says). Stopped when the process exits.
///
/// Needs Debian's `postgresql-15` (`.ci/run` installs it); without it the tests fail and say so.
public final class PostgresServer: Sendable {
    static let binaries = "/usr/lib/postgresql/15/bin"
    /// One server for the whole test run: each test gets a database of its own (`freshDatabase`).
    static let shared = Task<PostgresServer, any Error> { try PostgresServer() }
    private static let running = Mutex<[(pid: Int32, directory: URL)]>([])
    private static let databases = Atomic<Int>(0)

    public let directory: URL
    public let port: Int
    public let user = "aasa"
    /// Random per run: tests assert it appears in no message.
    public let password: String

    private init() throws {
        guard FileManager.default.isExecutableFile(atPath: "\(Self.binaries)/initdb") else {
            throw ServerError("PostgreSQL 15 is not installed: apt-get install -y postgresql-15")
        }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "aasa-pg-\(UUID().uuidString.prefix(8))")
        password = "pw-" + UUID().uuidString.replacingOccurrences(of: "-", with: "")
        port = try LoopbackSocket.freePort()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let passwordFile = directory.appendingPathComponent("pwfile")
        try password.write(to: passwordFile, atomically: true, encoding: .utf8)
        try Self.handOver(directory)
        let data = directory.appendingPathComponent("data").path
        try Self.run(
            "\(Self.binaries)/initdb",
            [
                "-D", data, "-U", user, "--pwfile=\(passwordFile.path)", "-A", "scram-sha-256", "--no-sync", "-E",
                "UTF8",
            ],
            log: directory.appendingPathComponent("initdb.log"))
        // The postmaster is this process's child (not pg_ctl's daemon): Foundation's `Process` does not see a
        // tool exit while a daemon it started holds the tool's descriptors.
        let server = try Self.process(
            "\(Self.binaries)/postgres",
            [
                "-D", data, "-c", "port=\(port)", "-c", "listen_addresses=127.0.0.1",
                "-c", "unix_socket_directories=\(directory.path)", "-c", "fsync=off", "-c", "synchronous_commit=off",
                "-c", "full_page_writes=off", "-c", "max_connections=300",
            ],
            log: directory.appendingPathComponent("server.log"))
        try server.run()
        Self.running.withLock { $0.append((server.processIdentifier, directory)) }
        atexit { PostgresServer.stopAll() }
        try waitUntilReady(server: server)
    }

    /// A new, empty database on the shared server, as a location a store connects to.
    package static func freshDatabase() async throws -> (PostgresServer, PostgresLocation) {
        let server = try await shared.value
        let name = "t\(databases.add(1, ordering: .relaxed).newValue)_\(getpid())"
        try run(
            "\(binaries)/psql",
            [
                "-X", "-h", "127.0.0.1", "-p", "\(server.port)", "-U", server.user, "-d", "postgres", "-v",
                "ON_ERROR_STOP=1", "-c", "CREATE DATABASE \(name)",
            ],
            log: server.directory.appendingPathComponent("psql-\(name).log"),
            environment: ["PGPASSWORD": server.password])
        return (
            server,
            PostgresLocation(
                host: "127.0.0.1", port: server.port, user: server.user, password: server.password, database: name,
                tls: .disable)
        )
    }

    /// Runs SQL with psql against `database` and returns its unaligned output (one row per line).
    public func psql(_ sql: String, database: String) throws -> String {
        let log = directory.appendingPathComponent("psql-\(UUID().uuidString.prefix(8)).out")
        try Self.run(
            "\(Self.binaries)/psql",
            [
                "-h", "127.0.0.1", "-p", "\(port)", "-U", user, "-d", database, "-v", "ON_ERROR_STOP=1", "-At", "-c",
                sql,
            ],
            log: log, environment: ["PGPASSWORD": password])
        return try String(contentsOf: log, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Runs SQL that must fail and returns what psql said.
    public func psqlFails(_ sql: String, database: String) -> String {
        do {
            let output = try psql(sql, database: database)
            return "succeeded: \(output)"
        } catch {
            return "\(error)"
        }
    }

    /// Stops every server this process started at once (SIGQUIT: immediate shutdown) and removes its directory.
    private static func stopAll() {
        for server in running.withLock({ $0 }) {
            kill(server.pid, SIGQUIT)
            // Its processes hold the data directory until they exit (within a second or so of SIGQUIT).
            var status: Int32 = 0
            _ = waitpid(server.pid, &status, 0)
            try? FileManager.default.removeItem(at: server.directory)
        }
    }

    /// Waits for the server to answer a query (`psql -c 'SELECT 1'`), for at most two minutes; fails at once if it
    /// exited.
    private func waitUntilReady(server: Process) throws {
        let log = directory.appendingPathComponent("server.log")
        let deadline = Date().addingTimeInterval(120)
        var lastAnswer = ""
        while Date() < deadline {
            guard server.isRunning else {
                let said = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
                throw ServerError("postgres exited \(server.terminationStatus): \(said)")
            }
            do {
                _ = try psql("SELECT 1", database: "postgres")
                return
            } catch {
                lastAnswer = "\(error)"
            }
            usleep(50_000)
        }
        throw ServerError("postgres did not answer within 120 s; psql said: \(lastAnswer)")
    }

    /// Runs `tool` to completion as the unprivileged `postgres` user when this process is root; output to `log`.
    private static func run(
        _ tool: String, _ arguments: [String], log: URL?, environment: [String: String] = [:]
    ) throws {
        let process = try process(tool, arguments, log: log, environment: environment)
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let said = log.flatMap { try? String(contentsOf: $0, encoding: .utf8) } ?? ""
            throw ServerError("\((tool as NSString).lastPathComponent) exited \(process.terminationStatus): \(said)")
        }
    }

    /// `tool` set up to run as the `postgres` user when this process is root (`setpriv` execs it: the process is
    /// the tool itself, so a signal to it reaches the tool).
    private static func process(
        _ tool: String, _ arguments: [String], log: URL?, environment: [String: String] = [:]
    ) throws -> Process {
        let process = Process()
        if getuid() == 0 {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments = ["--reuid=postgres", "--regid=postgres", "--init-groups", "--", tool] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: tool)
            process.arguments = arguments
        }
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardInput = FileHandle.nullDevice
        if let log {
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            let handle = try FileHandle(forWritingTo: log)
            process.standardOutput = handle
            process.standardError = handle
        } else {
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
        }
        return process
    }

    /// Gives `url` to the `postgres` user when this process is root (initdb's directory must be its own).
    private static func handOver(_ url: URL) throws {
        guard getuid() == 0, let account = getpwnam("postgres") else { return }
        guard chown(url.path, account.pointee.pw_uid, account.pointee.pw_gid) == 0 else {
            throw ServerError("chown \(url.path) to postgres failed: errno \(errno)")
        }
    }

}

struct ServerError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
