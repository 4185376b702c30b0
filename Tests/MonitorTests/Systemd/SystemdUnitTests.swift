import Foundation
import Testing

/// Checks `systemd/aasa-monitor.service` with `systemd-analyze`, where it is installed (it works offline, without a
/// running systemd); skipped elsewhere.
@Suite("systemd unit file")
struct SystemdUnitTests {
    static let analyzer = "/usr/bin/systemd-analyze"
    static let unit = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("systemd/aasa-monitor.service").path
    static var hasAnalyzer: Bool { FileManager.default.isExecutableFile(atPath: analyzer) }

    /// Runs `systemd-analyze` and returns its exit status and combined output lines.
    static func analyze(_ arguments: [String]) throws -> (status: Int32, lines: [String]) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: analyzer)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let lines = String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init)
        return (process.terminationStatus, lines)
    }

    @Test("passes systemd-analyze verify, apart from the binary not being installed here", .enabled(if: hasAnalyzer))
    func verify() throws {
        let result = try Self.analyze(["verify", Self.unit])
        let complaints = result.lines.filter { !$0.contains("/usr/local/bin/aasa-monitor is not executable") }
        #expect(complaints == [])
    }

    @Test("keeps the exposure that systemd-analyze security rates at or below 2.0", .enabled(if: hasAnalyzer))
    func exposure() throws {
        // --threshold is in tenths: 20 means an overall exposure level of 2.0 (the unit measured 1.1).
        let result = try Self.analyze(["security", "--offline=true", "--threshold=20", Self.unit])
        #expect(result.status == 0, "\(result.lines.last ?? "")")
    }
}
