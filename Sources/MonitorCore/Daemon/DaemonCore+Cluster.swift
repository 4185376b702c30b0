import Foundation
import MonitorEvaluation

/// A cluster's checks (`ClusterMode`): claimed from the database, committed under their lease.
extension DaemonCore {
    /// Whether a claim is made now: a slot is free, none is outstanding and something may have come due.
    var claimDue: Bool { claiming == nil && inFlight.count < configuration.http.concurrency }

    /// The claim to make now: as many domains as slots are free.
    mutating func claim(_ cluster: ClusterMode) -> Action {
        let limit = configuration.http.concurrency - inFlight.count
        claiming = limit
        return .claim(limit: limit, slack: batchSlack, leaseFor: cluster.leaseDuration)
    }

    /// A claim was granted: each configured domain not in flight starts with the entry the database holds (the
    /// last commit of any daemon); the others go back. A full grant means more may be due at once; otherwise the
    /// next claim waits for `nextDue`, at most `longestSleep` (another daemon's lease may end, or a domain be added).
    mutating func claimed(_ grants: [Grant], nextDue: Date?, now: Date, into actions: inout [Action]) {
        let limit = claiming ?? 0
        claiming = nil
        var unused: [Lease] = []
        var jobs: [Job] = []
        var ledger = self.ledger
        ledger.heldSources = conditions.heldSources
        for grant in grants {
            let name = grant.lease.domain
            guard phase == .running, let domain = domains[name], inFlight[name] == nil,
                inFlight.count < configuration.http.concurrency
            else {
                unused.append(grant.lease)
                continue
            }
            if let entry = grant.entry { book[name] = BookPage(entry: entry) } else { book[name] = nil }
            let job = Job(
                id: Job.ID(domain: name, number: nextJob), expectations: domain.expect, evaluation: evaluation,
                ledger: ledger, entry: grant.entry, lease: grant.lease, silences: silences,
                domainCount: configuredNames.count, startedAt: now)
            nextJob += 1
            inFlight[name] = InFlight(job: job, stage: .probing, reported: nil)
            jobs.append(job)
        }
        if !unused.isEmpty { actions.append(.release(unused)) }
        if !jobs.isEmpty { actions.append(.start(jobs)) }
        let poll = now.addingTimeInterval(tunables.longestSleep)
        nextClaimAt = grants.count >= limit ? now : max(now, min(nextDue ?? poll, poll))
    }

    /// The journal dropped a check: another daemon claimed its domain since. Nothing of it is kept; the entry this
    /// daemon held is no longer the domain's, so it leaves the book until a claim brings the current one.
    mutating func fenced(_ seq: Seq, into actions: inout [Action]) {
        guard var batch, batch.waiting.remove(seq) != nil else { return }
        defer { self.batch = batch.waiting.isEmpty ? nil : batch }
        guard let domain = batch.checks.removeValue(forKey: seq) else { return }
        inFlight[domain] = nil
        book[domain] = nil
        fencedChecks += 1
        actions.append(.log(.fenced(domain: domain)))
    }

    /// The fence of a leased check's append: its lease, and when the domain is next due (the plan's rule, from the
    /// state the check leaves).
    mutating func fence(of job: Job, reported: Reported) -> Fence? {
        guard let lease = job.lease else { return nil }
        let interval = domains[job.domain].map { configuration.interval(for: $0).seconds } ?? shortestInterval
        let state = reported.outcome.state
        var random = self.random
        let next = plan.nextCheck(
            after: reported.report.checkedAt, interval: interval,
            cdnBehind: state.verdict == .cdnStale || state.verdict == .cdnMissing, cdnExpiry: state.expectedRefresh,
            random: { Double.random(in: 0..<1, using: &random) })
        self.random = random
        return Fence(lease: lease, nextCheckIn: max(0, next.due.timeIntervalSince(reported.report.checkedAt)))
    }
}
