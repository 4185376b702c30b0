import AASA
import Foundation
import MonitorEvaluation

/// The timeline events a domain's first run stands for.
///
/// A domain's first check always notes the verdict it starts with (`verdict.changed` from nothing) and, when the
/// origin serves a valid file, its first meaning (`origin.first_seen`). Both say only what the first run holds (its
/// start, verdict and origin hash), so the store marks the run instead of writing two timeline rows and their index
/// entries (about a third of what a new domain cost), and `history` reads them back from the run.
public enum FirstRunEvents {
    /// The events of the first check of a domain whose first run started at `firstSeen` with these facts, in the
    /// order `DomainStateTransition` notes them.
    /// `because` is what the first verdict rests on (`VerdictReasons`), which `history` reads from the run's report.
    public static func events(
        firstSeen: Date, verdict: Verdict, originHash: String?, because: [FindingCode] = []
    ) -> [TimelineEvent] {
        var detail: FindingDetail = ["from": .null, "to": .string(verdict.rawValue)]
        if !because.isEmpty { detail["because"] = .array(because.map { .string($0.id) }) }
        var events = [TimelineEvent(at: firstSeen, kind: .verdictChanged, detail: detail)]
        if let originHash {
            events.append(TimelineEvent(at: firstSeen, kind: .originFirstSeen, detail: ["hash": .string(originHash)]))
        }
        return events
    }

    /// The timeline entries the store writes as rows: `timeline` without those the started run stands for (only a
    /// run that opens the domain's history stands for any, and only for entries equal to what `history` rebuilds).
    public static func stored(_ timeline: [TimelineEvent], run: RunUpdate) -> [TimelineEvent] {
        guard case .start(let new) = run, new.opensHistory else { return timeline }
        let implied = events(firstSeen: new.firstSeen, verdict: new.verdict, originHash: new.originHash)
        // The first verdict's `because` is rebuilt from the run's report, so it is no reason to write a row.
        return timeline.filter { entry in
            var bare = entry
            bare.detail["because"] = nil
            return !implied.contains(bare)
        }
    }

    /// `stored` timeline rows (oldest first) with the events of the domain's opening runs put back where they
    /// happened: before any stored event at the same time, as the first check noted them first. Keeps the newest
    /// `limit`.
    public static func merged(
        stored: [TimelineEvent], openingRuns: [(firstSeen: Date, verdict: Verdict, originHash: String?)], limit: Int
    ) -> [TimelineEvent] {
        let withoutReasons = openingRuns.map {
            (firstSeen: $0.firstSeen, verdict: $0.verdict, originHash: $0.originHash, because: [FindingCode]())
        }
        return merged(stored: stored, openingRunsWithReasons: withoutReasons, limit: limit)
    }

    /// `merged(stored:openingRuns:limit:)` with each opening run's `because` (the codes its first verdict rests on).
    public static func merged(
        stored: [TimelineEvent],
        openingRunsWithReasons openingRuns: [(
            firstSeen: Date, verdict: Verdict, originHash: String?, because: [FindingCode]
        )],
        limit: Int
    ) -> [TimelineEvent] {
        guard !openingRuns.isEmpty else { return Array(stored.suffix(max(0, limit))) }
        let implied = openingRuns.flatMap { run in
            events(firstSeen: run.firstSeen, verdict: run.verdict, originHash: run.originHash, because: run.because)
        }
        // Rank: time, then implied before stored, then the order within each list.
        let ranked =
            implied.enumerated().map { (event: $0.element, group: 0, index: $0.offset) }
            + stored.enumerated().map { (event: $0.element, group: 1, index: $0.offset) }
        let sorted = ranked.sorted { left, right in
            if left.event.at != right.event.at { return left.event.at < right.event.at }
            if left.group != right.group { return left.group < right.group }
            return left.index < right.index
        }
        return sorted.suffix(max(0, limit)).map(\.event)
    }
}
