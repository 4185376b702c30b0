import AASA
import Foundation
import MonitorCore
import MonitorEvaluation
import Testing

/// Issue 23 items 8 and 18: a flapping alert is said to be flapping in the chat message, and Slack's bold never
/// spans lines.
@Suite("Flapping and Slack's bold in chat messages")
struct FlappingMessageTests {
    typealias F = ObservationFixtures

    static let broken = F.observation(wellKnown: F.status(500))
    /// Flapping at the third firing within the hour, held open until it has passed for 2 minutes.
    static let policy = LedgerPolicy(
        alerts: AlertPolicy(failureThreshold: 1, flapStablePeriod: 120),
        webhooks: [IncidentMessageTests.slack, IncidentMessageTests.program])

    /// The `mrkdwn` texts of a Slack body.
    static func mrkdwnTexts(_ body: String) throws -> [String] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
        let blocks = try #require(object["blocks"] as? [[String: Any]])
        return blocks.flatMap { block -> [String] in
            var texts: [String] = []
            if let text = block["text"] as? [String: Any], text["type"] as? String == "mrkdwn" {
                texts.append(text["text"] as? String ?? "")
            }
            for element in block["elements"] as? [[String: Any]] ?? [] where element["type"] as? String == "mrkdwn" {
                texts.append(element["text"] as? String ?? "")
            }
            return texts
        }
    }

    @Test("the third firing within the hour is 'failing again, flapping', with the hold in words; its end says so")
    func flappingInWords() throws {
        let ok = F.observation()
        let checks = IncidentMessageTests.run(
            [Self.broken, ok, Self.broken, ok, Self.broken, ok, ok, ok], policy: Self.policy)
        let chat = try checks.map { try $0.filter { $0.webhook == "chat" }.map(IncidentMessageTests.slackText) }
        #expect(chat[0].count == 1 && chat[2].count == 1 && chat[4].count == 1)
        #expect(!chat[0][0].contains("lapping") && !chat[2][0].contains("lapping"), "\(chat[2])")
        let flapping = chat[4][0]
        #expect(flapping.contains("Failing again, flapping"), "\(flapping)")
        #expect(
            flapping.contains("Flapping: it fired 3 times within 1h, so it stays open until it has passed for 2m"),
            "\(flapping)")
        // Passing, but held: nothing is sent until it has passed for 2 minutes; then it is resolved, and says why
        // it took so long.
        #expect(chat[5].isEmpty && chat[6].isEmpty)
        let recovered = try #require(chat[7].first)
        #expect(recovered.contains("It had been flapping: it has now passed long enough to be resolved for good."))
        // Programs keep their flag.
        let program = checks[4].filter { $0.webhook == "program" }
        #expect(program.first?.event.alert?.flapping == true)
    }

    @Test("a flapping alert that passes is held open until it has passed for the stable period")
    func heldUntil() throws {
        let outcomes = IncidentMessageTests.outcomes(
            [Self.broken, F.observation(), Self.broken, F.observation(), Self.broken, F.observation()],
            policy: Self.policy)
        let alerts = try #require(outcomes.last).alerts
        let state = try #require(alerts.first { $0.key.code == .originStatus }?.value)
        guard case .resolving(let alert, _, let passingSince) = state else {
            Issue.record("expected resolving, got \(state)")
            return
        }
        #expect(alert.flapping)
        #expect(alert.holdPeriod == 120)
        #expect(alert.flapWindow == 3_600)
        #expect(passingSince == F.now.addingTimeInterval(5 * 60))
        #expect(alert.heldUntil(passingSince: passingSince) == passingSince.addingTimeInterval(120))
    }

    @Test("Slack's bold never spans lines: each heading is bold on its own line, the rest is plain")
    func slackBoldPerLine() throws {
        let waf = IncidentMessageTests.waf
        let checks = IncidentMessageTests.run([Self.broken, waf, F.observation()])
        let bodies = try checks.flatMap { try $0.filter { $0.webhook == "chat" }.map(IncidentMessageTests.slackText) }
        #expect(!bodies.isEmpty)
        for body in bodies {
            for text in try Self.mrkdwnTexts(body) {
                for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                    #expect(line.filter { $0 == "*" }.count % 2 == 0, "an asterisk pair spans lines: \(text)")
                }
            }
        }
        let first = try Self.mrkdwnTexts(try #require(bodies.first))
        #expect(first.contains { $0.hasPrefix("*Started failing:*\n• origin.") }, "\(first)")
    }
}
