import EndToEndSlot
import Foundation
import MonitorCheck
import MonitorCore
import MonitorDaemon
import MonitorEvaluation
import TestSupport
import Testing

/// `check` prints each domain as it finishes, in the order given, and `--json-lines` writes one object per domain.
@Suite("check streaming", .timeLimit(.minutes(10)), .endToEndSlot)
struct CheckStreamingTests {
    /// The objects of `--json-lines` output, one per line; fails on a line that is not one JSON object.
    static func objects(_ output: String) throws -> [[String: Any]] {
        try output.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        }
    }

    @Test("--json-lines: one object per domain, in the order given although the first finishes last")
    func jsonLinesInOrder() async throws {
        let domains = ["slow.origin.test", "ready.origin.test", "gone.origin.test"]
        try await CheckScenarios.with(cdnDomains: domains) { scenarios in
            let run = try await MonitorBinary.run(
                ["check"] + domains + ["--json-lines"] + scenarios.commandOptions)
            #expect(run.status == 1, "the most severe verdict wins: \(run.error)")
            let objects = try Self.objects(run.output).dropLast()
            #expect(objects.map { $0["domain"] as? String } == domains)
            #expect(objects.map { $0["verdict"] as? String } == ["origin_broken", "ready", "origin_broken"])
            let keys = Set(try #require(objects.first).keys)
            // The keys of a `--json` domain object; `diff` is left out when there is none, as in `--json`.
            #expect(
                keys.subtracting(["diff"]) == [
                    "domain", "verdict", "findings", "origin", "cdn", "checked_at", "duration",
                ])
        }
    }

    @Test("the text report and --json-lines end with one summary: how many domains had each verdict, and the exit")
    func endsWithSummary() async throws {
        let domains = ["ready.origin.test", "gone.origin.test", "stale.origin.test", "expect.origin.test"]
        try await CheckScenarios.with(cdnDomains: domains) { scenarios in
            // /buy/2 opens the app on the origin: expect.origin.test fails its expectation.
            let options =
                domains + ["--expect-no-url", "https://expect.origin.test/buy/2=\(CheckScenarios.app)"]
                + scenarios.commandOptions
            let text = try await MonitorBinary.run(["check"] + options)
            #expect(text.status == 1, "\(text.error)")
            // After the last domain's report, a blank line and the summary, the output's last line.
            let ending = text.output.split(separator: "\n", omittingEmptySubsequences: false).suffix(3)
            let summaryLine = "4 domains: 1 ready, 1 cdn_stale, 1 expectation_failed, 1 origin_broken — exit 1"
            #expect(Array(ending) == ["", Substring(summaryLine), ""], "\(text.output)")
            let lines = try await MonitorBinary.run(["check"] + options + ["--json-lines"])
            #expect(lines.status == 1, "\(lines.error)")
            let objects = try Self.objects(lines.output)
            #expect(objects.dropLast().map { $0["domain"] as? String } == domains)
            // The last line is told from a domain's by its one key, and carries what --json's summary carries.
            let last = try #require(objects.last)
            #expect(Array(last.keys) == ["summary"])
            let summary = try #require(last["summary"] as? [String: Any])
            #expect(summary["exit_code"] as? Int == 1)
            #expect(summary["verdict"] as? String == "origin_broken")
            #expect(summary["domains"] as? Int == 4)
            let counts = try #require(summary["verdicts"] as? [String: Int])
            #expect(counts == ["ready": 1, "origin_broken": 1, "cdn_stale": 1, "expectation_failed": 1])
            #expect(Set(summary.keys) == ["verdict", "exit_code", "domains", "verdicts", "version", "checked_at"])
        }
    }

    @Test("a domain is printed while a slower later one is still being checked")
    func printsAsEachFinishes() async throws {
        for format in [["--json-lines"], ["--json"], []] {
            try await CheckScenarios.with(cdnDomains: ["ready.origin.test", "hang.origin.test"]) { scenarios in
                // hang.origin.test never answers, and its timeout (5 minutes) is far past the wait below: it cannot
                // finish while the ready domain is looked for, however slow the machine. Once that is seen, the
                // run is stopped; the order and exit code of complete runs are textInOrder's and jsonLinesInOrder's.
                let process = try RunningMonitor(
                    arguments: ["check", "ready.origin.test", "hang.origin.test"] + format
                        + scenarios.options(timeout: "5m"))
                // A hang guard, not a speed bound: the ready domain is waited for as long as it takes, up to 2 min.
                let deadline = ContinuousClock.now + .seconds(120)
                while !process.standardOutput.contains("ready.origin.test"), process.isRunning,
                    ContinuousClock.now < deadline
                {
                    try await Task.sleep(for: .milliseconds(20))
                }
                let early = process.standardOutput
                let stillRunning = process.isRunning
                process.send(SIGKILL)
                _ = try await process.waitForExit()
                #expect(early.contains("ready.origin.test"), "\(format): \(process.standardError)")
                #expect(stillRunning, "\(format): the ready domain should be printed before the hanging one finishes")
                #expect(!early.contains("hang.origin.test"), "\(format)")
            }
        }
    }

    @Test("the human report keeps the order given and separates domains by one blank line")
    func textInOrder() async throws {
        try await CheckScenarios.with(cdnDomains: ["slow.origin.test", "ready.origin.test"]) { scenarios in
            let run = try await MonitorBinary.run(
                ["check", "slow.origin.test", "ready.origin.test"] + scenarios.commandOptions)
            #expect(run.status == 1)
            let blocks = run.output.components(separatedBy: "\n\n")
            #expect(blocks.count == 3, "\(run.output)")
            #expect(blocks.first?.hasPrefix("slow.origin.test: origin_broken") == true)
            #expect(blocks.dropLast().last?.hasPrefix("ready.origin.test: ready") == true)
            #expect(blocks.last == "2 domains: 1 ready, 1 origin_broken — exit 1\n")
        }
    }

    @Test("a report that cannot be written is not a pass: a full disk exits 2 saying so", arguments: [["--json"], []])
    func fullDisk(format: [String]) async throws {
        try await CheckScenarios.with(cdnDomains: ["ready.origin.test"]) { scenarios in
            let full = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/full"))
            let process = try RunningMonitor(
                arguments: ["check", "ready.origin.test"] + format + scenarios.commandOptions,
                standardOutput: full)
            #expect(try await process.waitForExit() == 2)
            #expect(
                process.standardError.contains(
                    "cannot write the report to standard output (No space left on device): it is incomplete"),
                "\(process.standardError)")
        }
    }

    @Test("a reader that went away stops the check quietly, as SIGPIPE would")
    func readerGone() async throws {
        let domains = ["ready.origin.test", "gone.origin.test"]
        try await CheckScenarios.with(cdnDomains: domains) { scenarios in
            let pipe = Pipe()
            try pipe.fileHandleForReading.close()
            let process = try RunningMonitor(
                arguments: ["check"] + domains + ["--json-lines"] + scenarios.commandOptions,
                standardOutput: pipe.fileHandleForWriting)
            try pipe.fileHandleForWriting.close()
            #expect(try await process.waitForExit(timeout: .seconds(60)) == 128 + SIGPIPE)
            #expect(process.standardError.isEmpty, "\(process.standardError)")
        }
    }

    @Test("--json and --json-lines together are a usage error")
    func jsonAndJSONLines() async throws {
        let run = try await MonitorBinary.run(["check", "example.com", "--json", "--json-lines"])
        #expect(run.status == 2)
        #expect(run.error.contains("--json and --json-lines: choose one"))
    }

    @Test("--json written piece by piece is byte for byte the document encoded whole")
    func jsonPiecesEqualWholeDocument() async throws {
        let domains = ["stale.origin.test", "missing.origin.test", "ready.origin.test"]
        let reports = try await CheckScenarios.with(cdnDomains: domains) { scenarios in
            try await CheckRunner.run(
                domains.map { CheckRunner.Target(domain: $0) }, probe: scenarios.settings,
                evaluation: EvaluationSettings())
        }
        #expect(reports.map(\.domain) == domains)
        for count in 0...reports.count {
            var stream = CheckJSONStream(lines: false)
            var pieces = Data()
            for report in reports.prefix(count) { pieces += stream.piece(try CheckJSONStream.encode(report)) }
            let summary = CheckSummary(
                verdicts: reports.prefix(count).map(\.verdict), version: "1.0",
                checkedAt: Date(timeIntervalSince1970: 0))
            pieces += try stream.end(summary: summary)
            let whole = try MonitorJSON.encoder().encode(
                CheckOutput(domains: Array(reports.prefix(count)), summary: summary))
            #expect(String(decoding: pieces, as: UTF8.self) == String(decoding: whole + Data("\n".utf8), as: UTF8.self))
        }
        var lines = CheckJSONStream(lines: true)
        let line = lines.piece(try CheckJSONStream.encode(reports[0]))
        #expect(line == (try MonitorJSON.encoder().encode(reports[0])) + Data("\n".utf8))
        let summary = CheckSummary(verdicts: [.ready], version: "1.0", checkedAt: Date(timeIntervalSince1970: 0))
        #expect(
            try lines.end(summary: summary)
                == (try MonitorJSON.encoder().encode(["summary": summary])) + Data("\n".utf8))
    }

    @Test("in-order release holds back later values until the earlier ones arrive")
    func inOrderRelease() {
        var release = InOrderRelease<String>()
        #expect(release.accept("c", at: 2) == [])
        #expect(release.accept("b", at: 1) == [])
        #expect(release.heldBack == 2)
        #expect(release.accept("a", at: 0) == ["a", "b", "c"])
        #expect(release.accept("d", at: 3) == ["d"])
        #expect(release.heldBack == 0)
        #expect(release.next == 4)
    }
}
