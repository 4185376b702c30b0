import AASA
import Foundation
import MonitorCore
import MonitorEvaluation
import Testing

/// The lint memo spares CPU and nothing else: reports are the same with it, and it stays within its bounds.
@Suite("Lint memo")
struct LintMemoTests {
    typealias F = ObservationFixtures

    static let observations: [(String, DomainObservation)] = [
        ("healthy", F.observation()),
        ("same bytes at Apple", F.observation(cdn: F.json(F.document, headers: F.cdnHeaders))),
        ("stale at Apple", F.observation(cdn: F.json(F.olderDocument, headers: F.cdnHeaders))),
        ("root serves the file", F.observation(root: F.json(F.document))),
        ("invalid JSON", F.observation(wellKnown: F.json(#"{"applinks": {"details": [}"#))),
        ("HTML page", F.observation(wellKnown: F.json("<!doctype html><html><body>Sign in</body></html>"))),
        ("lint findings", F.observation(wellKnown: F.json(#"{"applinks":{"details":[{"appIDs":["bad id"]}]}}"#))),
    ]

    @Test("a report is the same with the memo, first and second time, as without it")
    func sameReports() {
        let memo = LintMemo()
        for (name, observation) in Self.observations {
            let plain = DomainEvaluator.evaluate(observation, now: F.now)
            let first = DomainEvaluator.evaluate(observation, now: F.now, memo: memo)
            let again = DomainEvaluator.evaluate(observation, now: F.now, memo: memo)
            #expect(first == plain, "\(name): first evaluation through the memo differs")
            #expect(again == plain, "\(name): evaluation from the memo differs")
        }
        // Every second evaluation found its bodies: at least the .well-known body of each observation.
        #expect(memo.hits >= Self.observations.count)
    }

    @Test("bytes Apple serves unchanged are linted once per check")
    func identicalCopyLintedOnce() {
        let memo = LintMemo()
        _ = DomainEvaluator.evaluate(
            F.observation(cdn: F.json(F.document, headers: F.cdnHeaders)), now: F.now, memo: memo)
        #expect(memo.count == 1)
        #expect(memo.hits == 1)
    }

    @Test("it keeps at most its number of bodies and about its bytes, findings counted, and no result over a quarter")
    func bounded() {
        func fill(_ memo: LintMemo, bodies: Int) {
            for index in 0..<bodies {
                _ = DomainEvaluator.evaluate(
                    F.observation(wellKnown: F.json(F.document + String(repeating: " ", count: index)), cdn: nil),
                    now: F.now, memo: memo)
            }
        }
        let byCount = LintMemo(maximumEntries: 2, maximumBytes: 1 << 20)
        fill(byCount, bodies: 5)
        #expect(byCount.count == 2)

        let one = LintMemo()
        fill(one, bodies: 1)
        let cost = one.bytes
        #expect(cost >= F.document.utf8.count)
        // Room for four or five results: eight bodies leave some out, and never more than the limit in.
        let byBytes = LintMemo(maximumEntries: 100, maximumBytes: cost * 4 + 40)
        fill(byBytes, bodies: 8)
        #expect((4...5).contains(byBytes.count))
        #expect(byBytes.bytes <= cost * 4 + 40)

        let tooLarge = LintMemo(maximumEntries: 100, maximumBytes: cost * 4 - 1)
        fill(tooLarge, bodies: 1)
        #expect(tooLarge.count == 0)

        // A hostile file's findings are what it costs, not its bytes: 300 entries, each with an unknown key.
        let entries = (0..<300).map { #"{"appIDs":["ABCDE12345.com.x\#($0)"],"components":[{"/":"/a","x\#($0)":1}]}"# }
        let body = #"{"applinks":{"details":[\#(entries.joined(separator: ","))]}}"#
        let lintFindings = AASALint.lint(Array(body.utf8)).findings.count
        #expect(lintFindings >= 300)
        let findings = LintMemo()
        _ = DomainEvaluator.evaluate(F.observation(wellKnown: F.json(body), cdn: nil), now: F.now, memo: findings)
        #expect(findings.count == 1)
        #expect(findings.bytes >= 256 * lintFindings)
    }
}
