import AASA
import EndToEndSlot
import Foundation
import MonitorCore
import MonitorDaemon
import MonitorEndpoint
import MonitorEvaluation
import MonitorStore
import TestSupport
import Testing

/// Issue 23 items 7 and 18 with the real binary: `status` (text and JSON) and the pages show causes first with
/// their consequences under them, and name the webhook whose deliveries fail.
@Suite("status shows causes first", .timeLimit(.minutes(10)), .endToEndSlot)
struct CausesFirstStatusTests {
    typealias R = StoreReports

    /// An origin that times out on `.well-known`: the root path's status and Apple's miss follow from it. Sorted by
    /// code, the consequence `origin.status` would come first.
    static let findings = [
        ReportFinding(
            code: .originStatus, severity: .error, source: .root, message: "the root path answered 404",
            causedBy: FindingCause(code: .originTimeout, source: .wellKnown)),
        ReportFinding(code: .originTimeout, severity: .error, source: .wellKnown, message: "no answer in time"),
        ReportFinding(
            code: .cdnMissing, severity: .warning, source: .cdn, message: "Apple serves no copy",
            causedBy: FindingCause(code: .originTimeout, source: .wellKnown)),
    ]

    /// A state directory holding one check of that origin, and a failing webhook.
    static func seededState() async throws -> String {
        let directory = try makeTemporaryDirectory()
        let store = try await MonitorStore.open(directory: directory)
        try await store.record(
            report: R.report(at: 0, origin: nil, cdn: nil, verdict: .originBroken, findings: findings))
        try await store.enqueue([
            OutboxInsert(
                deliveryID: "d1", eventID: "e1", webhook: "team-chat", eventJSON: Data(#"{"type":"test"}"#.utf8),
                createdAt: R.at(0), nextAttemptAt: R.at(0)),
            OutboxInsert(
                deliveryID: "d2", eventID: "e2", webhook: "ops", eventJSON: Data(#"{"type":"test"}"#.utf8),
                createdAt: R.at(0), nextAttemptAt: R.at(0)),
        ])
        let due = try await store.dueDeliveries(now: R.at(1))
        for delivery in due {
            if delivery.webhook == "team-chat" {
                try await store.markRetry(
                    id: delivery.id, at: R.at(1), nextAttemptAt: R.at(2), status: 500, error: nil)
            } else {
                try await store.markDelivered(id: delivery.id, at: R.at(1), status: 200)
            }
        }
        try store.close()
        return directory
    }

    @Test("status lists the cause first with its consequences indented under it, saying what they follow from")
    func statusText() async throws {
        let directory = try await Self.seededState()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let run = try await MonitorBinary.run(["status", "--state-dir", directory])
        #expect(run.status == 0, "\(run.error)")
        let lines = run.output.split(separator: "\n").map(String.init)
        let cause = try #require(lines.firstIndex { $0.hasPrefix("  error origin.timeout [origin.well-known]") })
        let root = try #require(lines.firstIndex { $0.hasPrefix("    error origin.status [origin.root]") })
        let cdn = try #require(lines.firstIndex { $0.hasPrefix("    warning cdn.missing [cdn]") })
        #expect(cause < root && root < cdn, "\(run.output)")
        #expect(lines[root + 1] == "        because of origin.timeout on origin.well-known: no alert of its own")
        #expect(lines[cdn + 1] == "        because of origin.timeout on origin.well-known: no alert of its own")
        // The webhook whose deliveries fail is named; the one that delivers is not.
        let outbox = try #require(lines.first { $0.hasPrefix("outbox:") })
        #expect(outbox.contains("failing: team-chat (1 retrying; last answer HTTP 500)"), "\(outbox)")
        #expect(!outbox.contains("ops"))
    }

    @Test("history says what the first verdict rests on, once, though the first check writes no timeline row for it")
    func firstVerdictReason() async throws {
        let directory = try await Self.seededState()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let run = try await MonitorBinary.run(["history", "example.com", "--state-dir", directory])
        #expect(run.status == 0, "\(run.error)")
        let verdicts = run.output.split(separator: "\n").filter { $0.contains("verdict.changed") }
        #expect(verdicts.count == 1, "\(run.output)")
        #expect(verdicts.first?.hasSuffix("verdict.changed from=- to=origin_broken because=origin.timeout") == true)
        let json = try await MonitorBinary.run(["history", "example.com", "--state-dir", directory, "--json"])
        let root = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        let first = try #require((root["events"] as? [[String: Any]])?.first)
        #expect(first["because"] as? [String] == ["origin.timeout"])
    }

    @Test("status --json lists causes first and gives each finding its caused_by, and the failing webhooks")
    func statusJSON() async throws {
        let directory = try await Self.seededState()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let run = try await MonitorBinary.run(["status", "--state-dir", directory, "--json"])
        #expect(run.status == 0, "\(run.error)")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        let domain = try #require((root["domains"] as? [[String: Any]])?.first)
        let findings = try #require(domain["findings"] as? [[String: Any]])
        #expect(findings.map { $0["code"] as? String } == ["origin.timeout", "origin.status", "cdn.missing"])
        #expect(findings[0]["caused_by"] is NSNull)
        let causedBy = try #require(findings[1]["caused_by"] as? [String: Any])
        #expect(causedBy["code"] as? String == "origin.timeout")
        #expect(causedBy["source"] as? String == "origin.well-known")
        #expect(causedBy["relation"] as? String == "consequence")
        let outbox = try #require(root["outbox"] as? [String: Any])
        let failing = try #require(outbox["failing_webhooks"] as? [[String: Any]])
        #expect(failing.count == 1)
        #expect(failing.first?["webhook"] as? String == "team-chat")
        #expect(failing.first?["retrying"] as? Int == 1)
        #expect(failing.first?["dead"] as? Int == 0)
        #expect(failing.first?["last_status"] as? Int == 500)
        #expect(failing.first?["last_error"] is NSNull)
    }

    @Test("status --json without a database has the outbox's failing_webhooks too, empty")
    func noStateShape() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let run = try await MonitorBinary.run(["status", "--state-dir", directory + "/none", "--json"])
        let root = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        let outbox = try #require(root["outbox"] as? [String: Any])
        #expect((outbox["failing_webhooks"] as? [Any])?.isEmpty == true)
    }

    @Test("the overview's Origin column names the cause, the domain page puts it first, the outbox names the webhook")
    func pages() async throws {
        let directory = try await Self.seededState()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let reader = StatusPageReader(store: try StoreReader.openReadOnly(directory: directory))
        let overview = try await reader.overview(now: R.at(2), configured: ["example.com"], lastCycle: nil).html()
        #expect(overview.contains(#"<td data-label="Origin">error: origin.timeout</td>"#), "\(overview)")
        #expect(overview.contains("failing: team-chat (1 retrying; last answer HTTP 500)"))
        let page = try #require(try await reader.domain("example.com", now: R.at(2), configured: true)).html()
        let cause = try #require(page.range(of: "error origin.timeout"))
        let consequence = try #require(page.range(of: "error origin.status"))
        #expect(cause.lowerBound < consequence.lowerBound)
        #expect(page.contains(#"<div class="finding consequence">"#))
        #expect(page.contains("Because of origin.timeout on origin.well-known: no alert of its own."))
    }

    @Test("an open finding stored before causes were kept still reads, as a problem of its own")
    func oldStoredFinding() throws {
        let json =
            #"{"key":{"code":"origin.dns","source":"origin.well-known","subject":""},"#
            + #""severity":"error","message":"no address","since":1800000000}"#
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        let finding = try decoder.decode(OpenFinding.self, from: Data(json.utf8))
        #expect(finding.key.code == .originDNS)
        #expect(finding.causedBy == nil)
    }
}
