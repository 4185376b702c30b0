import EndToEndSlot
import Foundation
import TestSupport
import Testing

/// Issue 23 item 16 with the real binary: the first run of the README's from-source command, on the example
/// configuration's domains, says once that they are placeholders, and its log lines on a terminal carry the time.
@Suite("first run on the example configuration", .timeLimit(.minutes(10)), .endToEndSlot)
struct FirstRunTests {
    static let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("config/aasa-monitor.yml")

    @Test("run on the example's domains names example.com and example.org as placeholders, once; lines are dated")
    func placeholdersSaidOnce() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("aasa-first-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        // The example as it is, but listening on a free port: its 9464 may be taken on a test machine.
        let text = try String(contentsOf: Self.example, encoding: .utf8)
        #expect(text.contains("\nlisten: 127.0.0.1:9464\n"))
        let config = directory + "/config.yml"
        try text.replacingOccurrences(of: "\nlisten: 127.0.0.1:9464\n", with: "\nlisten: 127.0.0.1:0\n")
            .write(toFile: config, atomically: true, encoding: .utf8)
        var environment = ProcessInfo.processInfo.environment
        environment["JOURNAL_STREAM"] = nil
        let daemon = try RunningMonitor(
            arguments: ["run", "--config", config, "--state-dir", directory + "/state"], environment: environment)
        try await daemon.waitForLog("aasa-monitor: ready")
        // A reload is a second start of the configuration: still said only once.
        daemon.send(SIGHUP)
        try await daemon.waitForLog("reloaded")
        daemon.send(SIGTERM)
        #expect(try await daemon.waitForExit() == 0)
        let lines = daemon.standardError.split(separator: "\n").map(String.init)
        let notices = lines.filter { $0.contains("are placeholders") }
        #expect(notices.count == 1, "\(daemon.standardError)")
        #expect(
            notices.first?.contains(
                "WARNING aasa-monitor: example.com and example.org are placeholders of the example configuration: "
                    + "replace them with your own domains in \(config)") == true, "\(notices)")
        let dated = #/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ (TRACE|DEBUG|INFO|NOTICE|WARNING|ERROR|CRITICAL) /#
        for line in lines {
            #expect(line.firstMatch(of: dated) != nil, "a log line without its time: \(line)")
        }
    }
}
