import AASA
import Foundation
import MonitorCore
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

    @Test("it keeps at most its number of bodies and its bytes, and no body over a quarter of them")
    func bounded() {
        let byCount = LintMemo(maximumEntries: 2, maximumBytes: 1 << 20)
        for index in 0..<5 {
            _ = DomainEvaluator.evaluate(
                F.observation(wellKnown: F.json(F.document + String(repeating: " ", count: index)), cdn: nil),
                now: F.now, memo: byCount)
        }
        #expect(byCount.count == 2)

        let size = F.document.utf8.count
        let byBytes = LintMemo(maximumEntries: 100, maximumBytes: size * 4 + 28)
        for index in 0..<8 {
            _ = DomainEvaluator.evaluate(
                F.observation(wellKnown: F.json(F.document + String(repeating: " ", count: index)), cdn: nil),
                now: F.now, memo: byBytes)
        }
        // Bodies of size, size + 1, … size + 7 bytes, each under a quarter of the limit: the last four fit in it
        // (4 × size + 22 bytes), five would not.
        #expect(byBytes.count == 4)

        let tooLarge = LintMemo(maximumEntries: 100, maximumBytes: size * 4 - 1)
        _ = DomainEvaluator.evaluate(F.observation(cdn: nil), now: F.now, memo: tooLarge)
        #expect(tooLarge.count == 0)
    }
}
