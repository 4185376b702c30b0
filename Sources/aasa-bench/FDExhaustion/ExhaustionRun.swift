import BenchmarkSupport
import Foundation
import TestSupport

/// One daemon through the scenario, and the loop over many.
enum ExhaustionRun {
    /// How one run ended.
    struct Outcome: Sendable {
        var index: Int
        /// The daemon's status when it exited during the scenario (128 + n for signal n); nil when it kept running.
        var exitStatus: Int32?
        /// Its status after SIGTERM at the end; nil when it had exited already.
        var stopStatus: Int32?
        /// Whether it answered `GET /healthz` after the last round (any HTTP status).
        var answered: Bool
        var seconds: Double
        /// The run's directory, kept when the run failed (log, core file).
        var kept: String?

        var failed: Bool { exitStatus != nil || stopStatus != 0 || !answered }
    }

    static let document = FixtureFleet.document(app: "fd")

    /// Runs the scenario `options.runs` times, `options.parallel` at once; returns how many runs failed.
    static func runAll(_ options: ExhaustionOptions) async throws -> Int {
        raiseOwnDescriptorLimit()
        let server = try await FixtureFleet.start(
            suffix: "fd.test", domains: options.domains, document: document, cdnMaxAge: 2)
        let start = ContinuousClock.now
        var outcomes: [Outcome] = []
        do {
            try await withThrowingTaskGroup(of: Outcome.self) { group in
                var next = 0
                while next < min(options.parallel, options.runs) {
                    let index = next
                    group.addTask { try await run(index: index, server: server, options: options) }
                    next += 1
                }
                for try await outcome in group {
                    outcomes.append(outcome)
                    say(line(outcome))
                    if next < options.runs {
                        let index = next
                        group.addTask { try await run(index: index, server: server, options: options) }
                        next += 1
                    }
                }
            }
        } catch {
            await server.shutdown()
            throw error
        }
        await server.shutdown()
        let elapsed = ContinuousClock.now - start
        let exits = outcomes.filter { $0.exitStatus != nil }.count
        let failures = outcomes.filter(\.failed).count
        say(
            "\(options.runs) runs (ulimit -n \(options.limit), \(options.domains) domains at 1 s, "
                + "\(options.connections) idle connections held \(options.holdSeconds) s × \(options.rounds), "
                + "\(options.parallel) at once) in \(Int(elapsed.components.seconds)) s: \(exits) daemon exits, "
                + "\(failures) failed runs")
        return failures
    }

    /// Prints `text` at once (standard output into a file is block-buffered; a loop is watched as it runs).
    static func say(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    private static func line(_ outcome: Outcome) -> String {
        var text = "run \(outcome.index + 1): \(String(format: "%.0f", outcome.seconds)) s, "
        if let status = outcome.exitStatus {
            text += "DAEMON EXITED with status \(status)"
        } else {
            text += "stopped with \(outcome.stopStatus.map(String.init) ?? "-")"
            text += outcome.answered ? ", answered /healthz" : ", NO ANSWER on /healthz"
        }
        if let kept = outcome.kept { text += " (kept \(kept))" }
        return text
    }

    static func run(index: Int, server: FixtureServer, options: ExhaustionOptions) async throws -> Outcome {
        let started = ContinuousClock.now
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("fd-exhaustion-\(index + 1)-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory + "/state", withIntermediateDirectories: true)
        let configPath = directory + "/config.yml"
        try configuration(server: server, options: options, directory: directory)
            .write(toFile: configPath, atomically: true, encoding: .utf8)
        var environment = ProcessInfo.processInfo.environment
        if environment["SWIFT_BACKTRACE"] == nil { environment["SWIFT_BACKTRACE"] = "enable=yes" }
        // In the run's directory, so a core file lands there; the core limit may not be raisable (then no core).
        let command =
            "cd \"$2\" && { ulimit -c unlimited 2>/dev/null; true; } && ulimit -n \(options.limit) && "
            + "exec \"$0\" run --config \"$1\" --log-level info"
        let daemon = try RunningMonitor(
            arguments: ["-c", command, options.binary, configPath, directory], environment: environment,
            binary: "/bin/sh")
        var outcome = Outcome(index: index, answered: false, seconds: 0)
        do {
            try await daemon.waitForLog("endpoint listening", timeout: .seconds(30))
            let port = try port(daemon)
            for _ in 0..<options.rounds {
                let idle = IdleConnections(port: port, count: options.connections)
                try await Task.sleep(for: .seconds(options.holdSeconds))
                idle.close()
                guard daemon.isRunning else { break }
                // Let the endpoint see the closes and the checks run with descriptors free.
                try await Task.sleep(for: .seconds(1))
            }
            if daemon.isRunning { outcome.answered = await answersHealth(port: port) }
        } catch {
            FileHandle.standardError.write(Data("run \(index + 1): \(error)\n".utf8))
        }
        if daemon.isRunning {
            daemon.send(SIGTERM)
            outcome.stopStatus = try? await daemon.waitForExit(timeout: .seconds(30))
        } else {
            outcome.exitStatus = try await daemon.waitForExit()
        }
        outcome.seconds = Double((ContinuousClock.now - started).components.seconds)
        if outcome.failed {
            try daemon.standardError.write(toFile: directory + "/daemon.log", atomically: true, encoding: .utf8)
            outcome.kept = directory
        } else {
            try? FileManager.default.removeItem(atPath: directory)
        }
        return outcome
    }

    static func configuration(server: FixtureServer, options: ExhaustionOptions, directory: String) -> String {
        """
        state_dir: \(directory)/state
        interval: 1s
        listen: 127.0.0.1:0
        http:
          timeout: 3s
          ca_file: \(server.caFile)
          connect_to: ["\(server.wildcardConnectTo)"]
        cdn:
          base_url: https://cdn.fd.test/a/v1/
        domains:

        """ + (0..<options.domains).map { "  - d\($0).fd.test\n" }.joined()
    }

    /// The endpoint's port, from the daemon's `endpoint listening address=HOST:PORT` line.
    static func port(_ daemon: RunningMonitor) throws -> Int {
        let line = daemon.standardError.split(separator: "\n").first { $0.contains("endpoint listening") }
        let address = line?.split(separator: " ").first { $0.hasPrefix("address=") }?.dropFirst(8)
        guard let port = address?.split(separator: ":").last.flatMap({ Int($0) }) else {
            throw BenchmarkError("no endpoint address in: \(line ?? "")")
        }
        return port
    }

    /// Whether `GET /healthz` gets an HTTP answer within 10 s (tried once a second).
    private static func answersHealth(port: Int) async -> Bool {
        for _ in 0..<10 {
            if HealthProbe.statusLine(port: port)?.hasPrefix("HTTP/1.1 ") == true { return true }
            try? await Task.sleep(for: .seconds(1))
        }
        return false
    }
}
