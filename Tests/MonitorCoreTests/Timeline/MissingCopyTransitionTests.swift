import Foundation
import MonitorCore
import MonitorEvaluation
import Testing

/// A copy Apple does not have is missing, never stale; and only an origin change seen by the monitor dates the
/// origin's meaning (its first sight does not).
@Suite("missing copies and first sight")
struct MissingCopyTransitionTests {
    typealias R = TimelineReports

    @Test("a 404 from Apple is missing since its first check: no cdn.stale, no stale_since")
    func missingIsNotStale() throws {
        let (state, events) = R.run([
            R.report(at: 0, origin: "A", cdn: .answered(nil), verdict: .cdnMissing),
            R.report(at: 10, origin: "A", cdn: .answered(nil), verdict: .cdnMissing),
        ])
        #expect(state?.missingSince == R.at(0))
        #expect(state?.staleSince == nil)
        #expect(state?.cdnInSync == false)
        #expect(!events.contains { $0.kind == .cdnStale })
        #expect(events.filter { $0.kind == .cdnMissing }.count == 1)
    }

    @Test("missing, then an older copy, then the current one: missing → stale → in sync")
    func missingThenStaleThenInSync() {
        let (state, events) = R.run([
            R.report(at: 0, origin: "B", cdn: .answered(nil)),
            R.report(at: 10, origin: "B", cdn: .answered("A")),
        ])
        #expect(state?.missingSince == nil)
        #expect(state?.staleSince == R.at(10))
        let watched: Set<TimelineEvent.Kind> = [.cdnMissing, .cdnStale]
        let kinds: [TimelineEvent.Kind] = events.map(\.kind).filter { watched.contains($0) }
        #expect(kinds == [.cdnMissing, .cdnStale])
        let synced = DomainStateTransition.apply(
            previous: state, report: R.report(at: 20, origin: "B", cdn: .answered("B")))
        #expect(synced.state.missingSince == nil)
        #expect(synced.state.staleSince == nil)
    }

    @Test("the first sight of a meaning sets no change time; a change seen does")
    func changeTimeOnlyForChanges() {
        let first = R.run([R.report(at: 0, origin: "A", cdn: .answered(nil))])
        #expect(first.state?.originHashSince == R.at(0))
        #expect(first.state?.originChangedAt == nil)
        let changed = DomainStateTransition.apply(
            previous: first.state, report: R.report(at: 10, origin: "B", cdn: .answered(nil)))
        #expect(changed.state.originChangedAt == R.at(10))
    }
}
