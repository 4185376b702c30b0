import Foundation

/// What a reader of a running daemon waits for: the page's overview (`GET /`), `/metrics`, and `aasa-monitor
/// status` against the state directory, each timed by the wall clock with a cap.
enum EndpointProbe {
    /// One timed read: how long it took, what it sent, and whether it finished within its cap.
    struct Figures {
        var seconds: Double
        var bytes: Int
        /// The HTTP status, or the command's exit status; nil when the cap killed it.
        var status: Int?
        var answered: Bool { status != nil }

        /// `4.50 s, 56.0 MB`, `0.05 s, 3.9 KB` or `no answer in 120 s`.
        func describe(cap: Int) -> String {
            guard answered else { return "no answer in \(cap) s" }
            let size =
                bytes >= 1_048_576
                ? String(format: "%.1f MB", Double(bytes) / 1_048_576) : String(format: "%.1f KB", Double(bytes) / 1024)
            return String(format: "%.2f s, ", seconds) + size
                + (status == 0 || status == 200 ? "" : " (status \(status ?? 0))")
        }
    }

    /// `GET http://127.0.0.1:port/path` by the `curl` command, body discarded; its own timer (`time_total`).
    static func get(port: Int, path: String, capSeconds: Int) async throws -> Figures {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("daemon-bench-curl-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        let exit = try await run(
            "/usr/bin/curl",
            [
                "-s", "-o", "/dev/null", "--max-time", String(capSeconds), "-w",
                "%{http_code} %{size_download} %{time_total}", "http://127.0.0.1:\(port)\(path)",
            ], standardOutput: output, capSeconds: capSeconds + 5)
        let fields = ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").split(separator: " ")
        guard exit.status == 0, fields.count == 3, let code = Int(fields[0]), let bytes = Int(fields[1]),
            let seconds = Double(fields[2])
        else { return Figures(seconds: exit.seconds, bytes: 0, status: nil) }
        return Figures(seconds: seconds, bytes: bytes, status: code)
    }

    /// `aasa-monitor status --config FILE` as a user runs it, its output counted.
    static func status(binary: String, configPath: String, capSeconds: Int) async throws -> Figures {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("daemon-bench-status-\(UUID())")
            .path
        defer { try? FileManager.default.removeItem(atPath: output) }
        let exit = try await run(
            binary, ["status", "--config", configPath], standardOutput: output, capSeconds: capSeconds)
        let bytes = (try? FileManager.default.attributesOfItem(atPath: output)[.size] as? NSNumber)?.intValue ?? 0
        return Figures(seconds: exit.seconds, bytes: bytes, status: exit.status.map(Int.init))
    }

    /// Runs `executable` with standard output to the file `standardOutput`, polling for its end; kills it (the
    /// process this started, by its pid) after `capSeconds`, and then says `status` nil.
    private static func run(
        _ executable: String, _ arguments: [String], standardOutput: String, capSeconds: Int
    ) async throws -> (status: Int32?, seconds: Double) {
        _ = FileManager.default.createFile(atPath: standardOutput, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: standardOutput))
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        let start = ContinuousClock.now
        try process.run()
        let deadline = start + .seconds(capSeconds)
        while process.isRunning {
            if ContinuousClock.now >= deadline {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                return (nil, seconds(ContinuousClock.now - start))
            }
            try await Task.sleep(for: .milliseconds(5))
        }
        return (process.terminationStatus, seconds(ContinuousClock.now - start))
    }
}

/// A duration in seconds, as a `Double`.
func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}
