import AASA
import Foundation
import MonitorEvaluation

/// Folds one check's report into a domain's state and names what changed, without I/O or clocks.
///
/// The propagation timeline (origin changed → Apple's CDN serves the change) is a small state machine kept in
/// `DomainState.pendingPropagation`:
/// - none → pending: the origin's meaning changed (not on first sight: nobody knows when that one changed) and
///   Apple did not already serve the new meaning before the change was seen.
/// - pending → pending (newer hash): the origin changed again first; `propagation.superseded` for the older one.
/// - pending → none: a check that asked the CDN saw Apple serve the pending meaning; `cdn.propagated` with the
///   delay from the first check that saw the change, to within the time since the CDN was last asked.
/// Time is `report.checkedAt`. When the CDN was not asked, could not be reached or answered 5xx, the CDN facts (and
/// open CDN findings) stay as they were.
public enum DomainStateTransition {
    /// The new state and the timeline events of the check, in the order they happened.
    public typealias Outcome = (state: DomainState, events: [TimelineEvent])

    public static func apply(previous: DomainState?, report: DomainReport) -> Outcome {
        let now = report.checkedAt
        var events: [TimelineEvent] = []
        var state =
            previous
            ?? DomainState(
                domain: report.domain, verdict: report.verdict, verdictSince: now, lastCheck: now,
                lastDuration: report.durationSeconds.roundedToMilliseconds)

        if previous == nil || previous?.verdict != report.verdict {
            let from: DetailValue = previous.map { .string($0.verdict.rawValue) } ?? .null
            var detail: FindingDetail = ["from": from, "to": .string(report.verdict.rawValue)]
            // Why, in codes: what the new verdict rests on, and what was fixed since the last check.
            let because = VerdictReasons.codes(for: report.verdict, findings: report.findings)
            if !because.isEmpty { detail["because"] = .array(because.map { .string($0.id) }) }
            if let previous {
                let cleared = VerdictReasons.cleared(before: previous.openFindings, after: report.findings)
                if !cleared.isEmpty { detail["cleared"] = .array(cleared.map { .string($0.id) }) }
            }
            events.append(TimelineEvent(at: now, kind: .verdictChanged, detail: detail))
            state.verdict = report.verdict
            state.verdictSince = now
        }
        state.domain = report.domain
        state.lastCheck = now
        // To the millisecond, as runs keep durations: the state is rewritten on every check, and 16 digits of
        // measurement noise are bytes deflate cannot shrink.
        state.lastDuration = report.durationSeconds.roundedToMilliseconds
        if let notAfter = report.origin.wellKnown.certificate?.notAfter {
            state.certificateNotAfter = notAfter
        }

        let cdnAnswered = cdnSpokeForDomain(report.cdn)
        applyOrigin(report: report, cdnAnswered: cdnAnswered, state: &state, events: &events)
        if cdnAnswered {
            applyPropagation(report: report, state: &state, events: &events)
            applyCDNSync(report: report, state: &state, events: &events)
            state.cdnHash = report.cdnHash
            state.lastCDNCheck = now
        }
        state.openFindings = openFindings(previous: previous?.openFindings ?? [], report: report)
        return (state, events)
    }

    /// Whether the CDN gave an answer about this domain: only a 200 (a copy) or a 404 (no copy). Anything else —
    /// not asked, unreachable, a 5xx, a 429 — is `cdn.unreachable`, which "says nothing about the domain".
    private static func cdnSpokeForDomain(_ cdn: CDNFacts?) -> Bool {
        cdn?.status == 200 || cdn?.status == 404
    }

    /// Notes a new origin meaning: first sight, or a change that starts (or restarts) the propagation clock.
    private static func applyOrigin(
        report: DomainReport, cdnAnswered: Bool, state: inout DomainState, events: inout [TimelineEvent]
    ) {
        let now = report.checkedAt
        guard let newHash = report.originHash, newHash != state.originHash else { return }
        guard let oldHash = state.originHash else {
            events.append(TimelineEvent(at: now, kind: .originFirstSeen, detail: ["hash": .string(newHash)]))
            state.originHash = newHash
            state.originHashSince = now
            state.originChangedAt = nil
            return
        }
        events.append(
            TimelineEvent(at: now, kind: .originChanged, detail: ["from": .string(oldHash), "to": .string(newHash)]))
        state.originHash = newHash
        state.originHashSince = now
        state.originChangedAt = now
        if let pending = state.pendingPropagation {
            events.append(
                TimelineEvent(
                    at: now, kind: .propagationSuperseded,
                    detail: [
                        "hash": .string(pending.originHash), "changed_at": .time(pending.changedAt),
                        "superseded_by": .string(newHash),
                    ]))
            state.pendingPropagation = nil
        }
        // Apple already served this meaning before the change was seen (a revert): nothing has to propagate.
        let appleHadItAlready = state.lastCDNCheck != nil && state.cdnHash == newHash
        if !appleHadItAlready {
            state.pendingPropagation = PendingPropagation(originHash: newHash, changedAt: now)
        }
    }

    /// Closes the pending propagation when Apple now serves its meaning.
    private static func applyPropagation(report: DomainReport, state: inout DomainState, events: inout [TimelineEvent])
    {
        guard let pending = state.pendingPropagation, report.cdnHash == pending.originHash else { return }
        let now = report.checkedAt
        let delay = now.timeIntervalSince(pending.changedAt)
        let resolution = state.lastCDNCheck.map { now.timeIntervalSince($0) }
        events.append(
            TimelineEvent(
                at: now, kind: .cdnPropagated,
                detail: [
                    "hash": .string(pending.originHash), "changed_at": .time(pending.changedAt),
                    "delay": .double(delay), "resolution": .optional(resolution),
                ]))
        state.lastPropagationDelay = delay
        state.pendingPropagation = nil
    }

    /// Tracks whether Apple serves the origin's meaning, and since when it does not.
    private static func applyCDNSync(report: DomainReport, state: inout DomainState, events: inout [TimelineEvent]) {
        let now = report.checkedAt
        guard let originHash = report.originHash else {
            // No valid origin to compare with: in sync or not is unknown, but what Apple said is still a fact
            // (`status` shows it): no copy since when, or the copy it serves (`cdnHash`).
            state.cdnInSync = nil
            state.staleSince = nil
            let noCopy = report.cdn?.status == 404
            state.missingSince = noCopy ? (state.missingSince ?? now) : nil
            state.expectedRefresh = noCopy ? report.cdn?.expectedRefresh : nil
            return
        }
        let inSync = report.cdnHash == originHash
        if inSync {
            if state.cdnInSync == false {
                events.append(
                    TimelineEvent(
                        at: now, kind: .cdnInSync,
                        detail: [
                            "hash": .string(originHash), "stale_since": .time(state.staleSince),
                            "missing_since": .time(state.missingSince),
                        ]))
            }
            state.staleSince = nil
            state.missingSince = nil
            state.expectedRefresh = nil
        } else if report.cdnHash == nil {
            // Apple serves no usable copy: missing, which is not stale (there is no copy to be old).
            state.expectedRefresh = report.cdn?.expectedRefresh
            state.staleSince = nil
            if state.missingSince == nil {
                state.missingSince = now
                events.append(
                    TimelineEvent(
                        at: now, kind: .cdnMissing,
                        detail: [
                            "origin_hash": .string(originHash), "status": .optional(report.cdn?.status),
                            "apple_failure_reason": .optional(report.cdn?.appleFailureReason?.raw),
                        ]))
            }
        } else {
            state.expectedRefresh = report.cdn?.expectedRefresh
            state.missingSince = nil
            if state.cdnInSync != false || state.staleSince == nil {
                state.staleSince = now
                events.append(
                    TimelineEvent(
                        at: now, kind: .cdnStale,
                        detail: [
                            "origin_hash": .string(originHash), "cdn_hash": .optional(report.cdnHash),
                            "expected_refresh": .time(state.expectedRefresh),
                        ]))
            }
        }
        state.cdnInSync = inSync
    }

    /// The report's findings, each keeping the `since` of the same finding in the previous state; CDN findings
    /// stay open as they were when the CDN was not asked.
    private static func openFindings(previous: [OpenFinding], report: DomainReport) -> [OpenFinding] {
        let previousByKey = Dictionary(previous.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        var open: [OpenFinding.Key: OpenFinding] = [:]
        if !cdnSpokeForDomain(report.cdn) {
            for finding in previous where finding.key.source == .cdn { open[finding.key] = finding }
        }
        for finding in report.findings {
            let key = finding.openKey
            let since = previousByKey[key]?.since ?? report.checkedAt
            open[key] = OpenFinding(
                key: key, severity: finding.severity, message: finding.message, since: since,
                causedBy: finding.causedBy)
        }
        return open.values.sorted { $0.key < $1.key }
    }
}
