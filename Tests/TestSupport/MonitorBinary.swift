import Foundation

/// The built `aasa-monitor` binary, run as users, scripts and systemd run it: for exit codes, output and crashes.
public enum MonitorBinary {
    /// `swift test` builds every product next to the test bundle (`.build*/debug/`).
    public static let url: URL = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        .appendingPathComponent("aasa-monitor")

    /// What a finished run printed and how it ended.
    public struct Completion: Sendable {
        public var status: Int32
        public var output: String
        public var error: String
    }

    /// Runs the binary to completion; the process is killed if it outlives `timeout` (a hang guard, not a check).
    public static func run(
        _ arguments: [String],
        environment: [String: String]? = nil,
        standardInput: Data? = nil,
        timeout: Duration = .seconds(120),
        binary: String = MonitorBinary.url.path
    ) async throws -> Completion {
        let process = try RunningMonitor(
            arguments: arguments, environment: environment, binary: binary, standardInput: standardInput)
        let status = try await process.waitForExit(timeout: timeout)
        return Completion(status: status, output: process.standardOutput, error: process.standardError)
    }
}

/// A started `aasa-monitor` process whose output is collected to files, so it can be killed at any moment.
///
/// `@unchecked Sendable`: the only state is the `Process`, used after `run()` only through `isRunning`,
/// `processIdentifier` and the termination fields, which Foundation reads under its own lock.
public final class RunningMonitor: @unchecked Sendable {
    private let process: Process
    private let outputPath: String
    private let errorPath: String
    private let inputPath: String?

    /// Starts the binary with `arguments`; `environment` replaces the inherited one when given; `standardOutput`
    /// replaces the collected file (`/dev/full`, a pipe nobody reads); `standardInput` is read from a file (no
    /// pipe to feed, so nothing blocks a thread of the test's cooperative pool).
    public init(
        arguments: [String], environment: [String: String]? = nil, binary: String = MonitorBinary.url.path,
        standardOutput: FileHandle? = nil, standardInput: Data? = nil
    )
        throws
    {
        try EndToEndSlots.requireSlot(toStart: "aasa-monitor \(arguments.first ?? "")")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        if let environment { process.environment = environment }
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("aasa-run-\(UUID().uuidString)").path
        outputPath = base + ".out"
        errorPath = base + ".err"
        inputPath = standardInput == nil ? nil : base + ".in"
        if let inputPath, let standardInput {
            _ = FileManager.default.createFile(atPath: inputPath, contents: standardInput)
        }
        _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
        process.standardOutput = try standardOutput ?? FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errorPath))
        process.standardInput =
            try inputPath.map { try FileHandle(forReadingFrom: URL(fileURLWithPath: $0)) } ?? FileHandle.nullDevice
        try process.run()
        self.process = process
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        try? FileManager.default.removeItem(atPath: outputPath)
        try? FileManager.default.removeItem(atPath: errorPath)
        if let inputPath { try? FileManager.default.removeItem(atPath: inputPath) }
    }

    public var pid: Int32 { process.processIdentifier }
    public var isRunning: Bool { process.isRunning }
    /// Everything printed on standard output so far.
    public var standardOutput: String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }
    /// Everything printed on standard error so far (logs).
    public var standardError: String { (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "" }

    /// Sends `signal` (SIGTERM, SIGHUP, SIGKILL…).
    public func send(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Waits for the process to end and returns its exit status (128 + n for a signal); kills it after `timeout`.
    public func waitForExit(timeout: Duration = .seconds(60)) async throws -> Int32 {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning {
            if ContinuousClock.now >= deadline {
                send(SIGKILL)
                throw FixtureTimeoutError(waitingFor: "aasa-monitor to exit", activity: FixtureActivity())
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        return process.terminationReason == .uncaughtSignal
            ? 128 + process.terminationStatus : process.terminationStatus
    }

    /// Waits until standard error contains `text` (a log line), or throws after `timeout`.
    public func waitForLog(_ text: String, timeout: Duration = .seconds(90)) async throws {
        let deadline = ContinuousClock.now + timeout
        while !standardError.contains(text) {
            guard ContinuousClock.now < deadline, process.isRunning || standardError.contains(text) else {
                throw FixtureTimeoutError(
                    waitingFor: "log line containing '\(text)'; log so far:\n\(standardError)",
                    activity: FixtureActivity())
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}
