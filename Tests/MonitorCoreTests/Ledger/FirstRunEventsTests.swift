import Foundation
import MonitorCore
import MonitorEvaluation
import Testing

/// The events a domain's opening run stands for are left out of the rows, and put back where they happened.
@Suite("First-run events")
struct FirstRunEventsTests {
    typealias T = TimelineReports

    static func apply(_ snapshot: DomainSnapshot, _ report: DomainReport) -> LedgerOutcome {
        var counter = 0
        return DomainLedger.apply(
            snapshot, report: report, policy: .quiet,
            makeID: {
                counter += 1
                return "id-\(counter)"
            })
    }

    @Test("the first check's run opens the history and stands for exactly its first two events")
    func firstCheck() {
        let outcome = Self.apply(DomainSnapshot(), T.report(at: 0, origin: "sha256:a", cdn: .answered("sha256:b")))
        guard case .start(let run) = outcome.run else {
            Issue.record("a first check starts a run")
            return
        }
        #expect(run.opensHistory)
        #expect(outcome.timeline.map(\.kind) == [.verdictChanged, .originFirstSeen, .cdnStale])
        #expect(FirstRunEvents.stored(outcome.timeline, run: outcome.run).map(\.kind) == [.cdnStale])
        let rebuilt = FirstRunEvents.merged(
            stored: FirstRunEvents.stored(outcome.timeline, run: outcome.run),
            openingRuns: [(run.firstSeen, run.verdict, run.originHash)], limit: 10)
        #expect(rebuilt == outcome.timeline)
    }

    @Test("a later run opens nothing, and every event of its check is a row")
    func laterCheck() {
        let first = Self.apply(
            DomainSnapshot(), T.report(at: 0, origin: nil, cdn: .answered(nil), verdict: .originBroken))
        var snapshot = DomainSnapshot()
        snapshot.state = first.state
        let second = Self.apply(snapshot, T.report(at: 1, origin: "sha256:a", cdn: .answered("sha256:a")))
        guard case .start(let run) = second.run else {
            Issue.record("a changed outcome starts a run")
            return
        }
        #expect(!run.opensHistory)
        // The verdict changes from origin_broken and the first meaning appears now: both are rows.
        #expect(second.timeline.map(\.kind) == [.verdictChanged, .originFirstSeen])
        #expect(FirstRunEvents.stored(second.timeline, run: second.run) == second.timeline)
    }

    @Test("an opening run drops only events equal to the ones it rebuilds")
    func dropsOnlyEqualEvents() {
        let at = T.at(0)
        let run = HistoryRun(
            domain: "example.com", firstSeen: at, lastSeen: at, checks: 1, verdict: .ready, originHash: "sha256:a",
            cdnHash: nil, key: "k", report: T.report(at: 0, origin: "sha256:a", cdn: .notAsked), opensHistory: true)
        let other = TimelineEvent(at: at, kind: .originFirstSeen, detail: ["hash": .string("sha256:b")])
        let events = FirstRunEvents.events(firstSeen: at, verdict: .ready, originHash: "sha256:a") + [other]
        #expect(FirstRunEvents.stored(events, run: .start(run)) == [other])
        #expect(FirstRunEvents.stored(events, run: .extend(RunMark(id: 1, key: "k"), lastSeen: at)) == events)
    }

    @Test("rebuilt events go before rows of the same time, after older ones, and the limit keeps the newest")
    func mergeOrder() {
        let rowAtStart = TimelineEvent(at: T.at(0), kind: .cdnStale, detail: [:])
        let later = TimelineEvent(at: T.at(5), kind: .cdnInSync, detail: [:])
        // A domain removed and added back opens its history twice.
        let opening: [(firstSeen: Date, verdict: Verdict, originHash: String?)] = [
            (T.at(0), .ready, "sha256:a"), (T.at(3), .originBroken, nil),
        ]
        let merged = FirstRunEvents.merged(stored: [rowAtStart, later], openingRuns: opening, limit: 10)
        #expect(merged.map(\.kind) == [.verdictChanged, .originFirstSeen, .cdnStale, .verdictChanged, .cdnInSync])
        #expect(merged.map(\.at) == [T.at(0), T.at(0), T.at(0), T.at(3), T.at(5)])
        let newest = FirstRunEvents.merged(stored: [rowAtStart, later], openingRuns: opening, limit: 2)
        #expect(newest == Array(merged.suffix(2)))
        #expect(FirstRunEvents.merged(stored: [later], openingRuns: [], limit: 0).isEmpty)
    }
}
