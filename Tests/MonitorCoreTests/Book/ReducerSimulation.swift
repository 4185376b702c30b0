import Foundation
import MonitorCore
import MonitorEvaluation

/// A daemon's record path in miniature for the reducer's tests: a book entry, a journal that may fail, and the
/// history runs and documents it committed. Steps are driven by a seeded generator, so a failure names its seed.
struct ReducerSimulation {
    /// What one check of the simulated domain saw.
    enum Outcome: CaseIterable {
        case healthy, originNotFound, olderOrigin, cdnMissing, originDNS
    }

    struct Commit {
        var at: Date
        var ledger: LedgerOutcome
        /// The run the check extended or started.
        var run: RunMark
        var silenced: Bool
    }

    var entry: BookEntry?
    var now = ObservationFixtures.now
    var nextRunID: Int64 = 1
    /// Each committed run's id and key, by id.
    var runs: [Int64: String] = [:]
    var documents: [String: String] = [:]
    var silences: [Silence] = []
    var commits: [Commit] = []
    var failedAppends = 0

    static func observation(_ outcome: Outcome, at time: Date) -> DomainObservation {
        let observation: DomainObservation
        switch outcome {
        case .healthy:
            observation = ObservationFixtures.observation()
        case .originNotFound:
            observation = ObservationFixtures.observation(wellKnown: ObservationFixtures.status(404))
        case .olderOrigin:
            observation = ObservationFixtures.observation(
                wellKnown: ObservationFixtures.json(ObservationFixtures.olderDocument))
        case .cdnMissing:
            observation = ObservationFixtures.observation(cdn: ObservationFixtures.status(404))
        case .originDNS:
            observation = ObservationFixtures.observation(wellKnown: ObservationFixtures.failure(.dns))
        }
        var timed = observation
        timed.startedAt = time
        timed.finishedAt = time.addingTimeInterval(0.5)
        return timed
    }

    /// One check at the current time; `commits` false makes its journal append fail (nothing of it is kept).
    mutating func check(_ outcome: Outcome, policy: LedgerPolicy, committing commits: Bool, ids: inout Int) {
        let report = DomainReducer.report(
            of: Self.observation(outcome, at: now), entry: entry, expectations: Expectations(),
            settings: EvaluationSettings())
        let previous = DomainReducer.documentNeeded(entry: entry, report: report).flatMap { documents[$0] }
        let ledger = DomainReducer.records(
            of: report, entry: entry, policy: policy, silences: silences, previousOriginDocument: previous,
            makeID: {
                ids += 1
                return String(format: "%026d", ids)
            })
        guard commits else {
            failedAppends += 1
            return
        }
        let run: RunMark
        switch ledger.run {
        case .extend(let mark, _):
            run = mark
        case .start(let new):
            run = RunMark(id: nextRunID, key: new.key)
            runs[nextRunID] = new.key
            nextRunID += 1
        }
        documents.merge(report.documents) { first, _ in first }
        entry = BookEntry(committed: ledger, run: run)
        let silenced = silences.contains { $0.isActive(at: report.checkedAt) && $0.covers(domain: report.domain) }
        self.commits.append(Commit(at: report.checkedAt, ledger: ledger, run: run, silenced: silenced))
    }
}
