import AASA
import Foundation
import MonitorEvaluation

extension DaemonCore {
    /// A check ended. A report is accepted: folded into the monitor's conditions, judged again if the held sources
    /// changed since its job started, and queued for the next batch. The domain keeps its slot until its append is
    /// answered, so two checks of one domain never overlap.
    mutating func checked(_ id: Job.ID, _ result: CheckResult, now: Date, into actions: inout [Action]) {
        guard let flight = inFlight[id.domain], flight.job.id == id, flight.stage == .probing else { return }
        let job = flight.job
        switch result {
        case .reported(let reported):
            // A fetch failed while this process lacked resources at some moment of the check, and has them again:
            // the check is discarded, but the condition is not fired again for a trouble already over (a later
            // check may have resolved it; that would page a resolved trouble twice).
            if reported.failedFetch, let shortage = reported.lastShortage, shortage >= job.startedAt {
                let reason =
                    "this process ran short of file descriptors or memory while the check ran (at "
                    + "\(RFC3339.string(shortage))); it has them again, and the domain is checked at its next interval"
                end(job, now: now)
                actions.append(.log(.discarded(domain: job.domain, reason: reason, current: false)))
                return
            }
            accept(reported, of: job, flight: flight)
        case .resourceShortage(let reason):
            // Our own trouble, not the domain's: the check is discarded and the condition fires.
            end(job, now: now)
            actions.append(.log(.discarded(domain: job.domain, reason: reason, current: true)))
            pend(conditions.fault(.resources, message: reason, now: now), webhooks: configuration.webhooks, at: now)
        case .failed(let reason):
            end(job, now: now)
            actions.append(.log(.notRecorded(domain: job.domain, reason: reason)))
        case .abandoned:
            end(job, now: now)
            actions.append(.log(.abandoned(domain: job.domain)))
        }
    }

    /// Folds an accepted report in and queues it; its condition changes ride its batch.
    private mutating func accept(_ reported: Reported, of job: Job, flight: InFlight) {
        var reported = reported
        let report = reported.report
        let transitions = conditions.record(report, domains: job.domainCount, now: report.checkedAt)
        let held = conditions.heldSources
        if held != job.ledger.heldSources {
            // The held sources changed while the check ran (or with this very report): judged under those in force.
            var policy = job.ledger
            policy.heldSources = held
            var random = self.random
            reported.outcome = DomainReducer.records(
                of: report, entry: job.entry, policy: policy, silences: job.silences,
                previousOriginDocument: reported.previousOriginDocument,
                makeID: { EventID.make(at: report.checkedAt, using: &random) })
            self.random = random
        }
        pend(transitions, webhooks: job.ledger.webhooks, at: report.checkedAt)
        var flight = flight
        flight.stage = .queued
        flight.reported = reported
        inFlight[job.domain] = flight
        queue.append(job.domain)
    }

    /// A check that ends without a record: its slot is freed and its next check scheduled.
    private mutating func end(_ job: Job, now: Date) {
        inFlight[job.domain] = nil
        checksFailed += 1
        reschedule(job.domain, now: now)
    }

    /// Keeps the records of `transitions` (built once: their ids stay the same until committed) for the next append.
    mutating func pend(_ transitions: [MonitorConditions.Transition], webhooks: [WebhookConfiguration], at time: Date) {
        guard !transitions.isEmpty else { return }
        var random = self.random
        let records = ConditionLedger.records(
            of: transitions, webhooks: webhooks, makeID: { EventID.make(at: time, using: &random) })
        self.random = random
        pendingConditions.append(
            ConditionRecords(transitions: transitions, events: records.events, deliveries: records.deliveries))
        conditionRetryAt = min(conditionRetryAt ?? time, time)
    }

    /// The journal committed item `seq`.
    mutating func committed(_ seq: Seq, run: RunMark?, now: Date, into actions: inout [Action]) {
        guard var batch, batch.waiting.remove(seq) != nil else { return }
        defer { self.batch = batch.waiting.isEmpty ? nil : batch }
        if let item = batch.conditions, item.seq == seq {
            let done = pendingConditions.prefix(item.count)
            pendingConditions.removeFirst(item.count)
            if pendingConditions.isEmpty { conditionRetryAt = nil }
            if done.contains(where: { !$0.deliveries.isEmpty }) { outboxDirty = true }
            actions.append(.log(.conditions(done.flatMap(\.events))))
            return
        }
        guard let domain = batch.checks.removeValue(forKey: seq), let flight = inFlight[domain],
            let reported = flight.reported
        else { return }
        guard let run else {
            failedCheck(domain, reason: "the journal returned no history run for the check", now: now, into: &actions)
            return
        }
        inFlight[domain] = nil
        let entry = BookEntry(committed: reported.outcome, run: run)
        if domains[domain] != nil {
            var page = book.removeValue(forKey: domain) ?? BookPage(entry: entry)
            // Copied before a change when another copy of the core shares it (pages are classes, for memory).
            if !isKnownUniquelyReferenced(&page) {
                let copy = BookPage(entry: page.entry)
                copy.checks = page.checks
                page = copy
            }
            page.entry = entry
            page.checks.add(reported.report.verdict)
            book[domain] = page
            checksCompleted += 1
        } else {
            // Removed by a reload while its check ran: not brought back, but kept for a reload adding it again.
            removedCommits[domain] = entry
        }
        reschedule(domain, now: now)
        if !reported.outcome.deliveries.isEmpty { outboxDirty = true }
        actions.append(.log(.committed(reported.report, reported.outcome)))
    }

    /// The journal did not keep item `seq`. Condition records stay pending, in order and with their ids, and are
    /// tried again; a check is not retried: its next check reduces from the same entry.
    mutating func appendFailed(_ seq: Seq, reason: String, now: Date, into actions: inout [Action]) {
        guard var batch, batch.waiting.remove(seq) != nil else { return }
        defer { self.batch = batch.waiting.isEmpty ? nil : batch }
        if let item = batch.conditions, item.seq == seq {
            conditionRetryAt = now.addingTimeInterval(tunables.conditionRetry)
            let codes = pendingConditions.prefix(item.count).flatMap { $0.transitions.map(\.condition.code) }
            actions.append(.log(.conditionsNotJournaled(codes: codes, reason: reason)))
            return
        }
        guard let domain = batch.checks.removeValue(forKey: seq) else { return }
        failedCheck(domain, reason: reason, now: now, into: &actions)
    }

    private mutating func failedCheck(_ domain: String, reason: String, now: Date, into actions: inout [Action]) {
        inFlight[domain] = nil
        checksFailed += 1
        reschedule(domain, now: now)
        actions.append(.log(.notRecorded(domain: domain, reason: reason)))
    }
}
