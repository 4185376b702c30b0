import AASA
import Foundation
import MonitorEvaluation

extension DaemonCore {
    /// How early a check may start to share a wake-up with others: 1% of the shortest interval, at most a second
    /// (at 100,000 domains every 15 minutes, about 110 checks a second start in one batch instead of 110 wake-ups).
    var batchSlack: TimeInterval { min(1, shortestInterval / 100) }

    /// Whether the store is known not to commit: changes of the conditions are then not appended on their own.
    var storeDown: Bool { conditions.active[.monitorStore] != nil }

    /// Nothing of the journal's is left to do at shutdown: no check in flight or queued, no batch, and the
    /// conditions written, given up (the store is down) or tried one last time.
    private var drained: Bool {
        inFlight.isEmpty && queue.isEmpty && batch == nil && claiming == nil
            && (pendingConditions.isEmpty || lastConditionsTried || storeDown)
    }

    /// Derives from the state what to append, start, read, wake, when to look again and whether to finish.
    mutating func settle(now: Date, into actions: inout [Action]) {
        lastTick = max(lastTick, now)
        if let batch = nextBatch(now: now) { actions.append(.append(batch)) }
        if checksDue(now: now) {
            // Started with the stored silences read at most `silenceRefresh` before (`silence add` writes them from
            // another process): when older, they are read first and the checks start with the answer.
            if now.timeIntervalSince(silencesReadAt) < tunables.silenceRefresh {
                if let cluster {
                    actions.append(claim(cluster))
                } else {
                    let jobs = dueJobs(now: now)
                    if !jobs.isEmpty { actions.append(.start(jobs)) }
                }
            } else if !silencesReading {
                silencesReading = true
                actions.append(.readSilences(at: now))
            }
        }
        if deliveryWanted(now: now) {
            deliveryRunning = true
            deliveryPaused = false
            deliveryDueAt = nil
            outboxDirty = false
            actions.append(.wakeDelivery(webhooks: configuration.webhooks, policy: configuration.deliveryPolicy))
        }
        if phase == .stopping, drained, !deliveryRunning, !outboxDirty {
            phase = .finished
            actions.append(.finish)
            return
        }
        let wake = nextWake(now: now)
        if sleepingUntil.map({ $0 <= now || wake < $0 }) ?? true {
            sleepingUntil = wake
            actions.append(.sleep(until: wake))
        }
    }

    /// The next batch, when none is in flight and there is something to append: the pending condition records
    /// first (with a check to ride, when due, or as a shutdown's last try), then the queued checks in order.
    private mutating func nextBatch(now: Date) -> JournalBatch? {
        guard batch == nil else { return nil }
        var items: [JournalBatch.Item] = []
        var next = Batch(waiting: [], conditions: nil, checks: [:])
        let due = conditionRetryAt.map { $0 <= now } ?? false
        let lastTry = phase == .stopping && inFlight.isEmpty && !lastConditionsTried
        if !pendingConditions.isEmpty, !queue.isEmpty || (!storeDown && (due || lastTry)) {
            if phase == .stopping, inFlight.isEmpty { lastConditionsTried = true }
            let active = conditions.active.values.sorted { $0.code < $1.code }
            let append = JournalAppend(
                conditions: active, conditionDeliveries: pendingConditions.flatMap(\.deliveries), at: now)
            items.append(JournalBatch.Item(seq: nextSeq, append: append))
            next.conditions = (nextSeq, pendingConditions.count)
            next.waiting.insert(nextSeq)
            nextSeq += 1
        }
        let taken = queue.prefix(tunables.batchLimit)
        queue.removeFirst(taken.count)
        for domain in taken {
            guard let reported = inFlight[domain]?.reported else { continue }
            inFlight[domain]?.stage = .appending(nextSeq)
            var append = JournalAppend(check: (reported.report, reported.outcome), at: reported.report.checkedAt)
            if let job = inFlight[domain]?.job { append.fence = fence(of: job, reported: reported) }
            items.append(JournalBatch.Item(seq: nextSeq, append: append))
            next.checks[nextSeq] = domain
            next.waiting.insert(nextSeq)
            nextSeq += 1
        }
        guard !items.isEmpty else { return nil }
        batch = next
        return JournalBatch(items: items)
    }

    /// Whether a check has come due and a slot is free (in a cluster: whether to claim). Only then do the checks due within `batchSlack` start
    /// with it: one wake-up for all of them, not one each. An event between wake-ups (a check reported, a batch
    /// committed) starts nothing early: at 100,000 domains that trickle of one or two starts per event cost 4.16 and
    /// 3.93 ms of CPU per check where bursts at the planned wake-ups cost 3.71 and 3.87 (`aasa-bench daemon`).
    private func checksDue(now: Date) -> Bool {
        if cluster != nil { return phase == .running && claimDue && nextClaimAt <= now }
        guard phase == .running, inFlight.count < configuration.http.concurrency, let first = plan.nextWake else {
            return false
        }
        return first <= now
    }

    /// The checks to start now: at most the configured concurrency in flight, never two of one domain.
    private mutating func dueJobs(now: Date) -> [Job] {
        let room = configuration.http.concurrency - inFlight.count
        var ledger = self.ledger
        ledger.heldSources = conditions.heldSources
        var jobs: [Job] = []
        for name in plan.takeDue(at: now.addingTimeInterval(batchSlack), limit: room) {
            // Removed and added back by two reloads while its check still runs: the plan keeps it in flight, and
            // that check's end schedules the next one, so two checks of one domain never overlap.
            guard inFlight[name] == nil else { continue }
            guard let domain = domains[name] else {
                // Not configured (the plan and the index come from one configuration, so this does not happen):
                // put it back rather than leave it in flight forever.
                var random = self.random
                plan.finished(
                    name, at: now, cdnBehind: false, cdnExpiry: nil,
                    random: { Double.random(in: 0..<1, using: &random) })
                self.random = random
                continue
            }
            let job = Job(
                id: Job.ID(domain: name, number: nextJob), expectations: domain.expect, evaluation: evaluation,
                ledger: ledger, entry: book[name]?.entry, silences: silences,
                domainCount: configuredNames.count, startedAt: now)
            nextJob += 1
            inFlight[name] = InFlight(job: job, stage: .probing, reported: nil)
            jobs.append(job)
        }
        return jobs
    }

    /// Whether a delivery pass starts now: something may have been queued (unless a pause after a failure runs),
    /// or a retry, the poll or the pause came due. At shutdown, once the journal is drained, only a dirty outbox
    /// gets one last pass.
    private func deliveryWanted(now: Date) -> Bool {
        guard !deliveryRunning else { return false }
        switch phase {
        case .running:
            return (outboxDirty && !deliveryPaused) || (deliveryDueAt.map { $0 <= now } ?? false)
        case .stopping:
            if drained { return outboxDirty }
            return (outboxDirty && !deliveryPaused) || (deliveryDueAt.map { $0 <= now } ?? false)
        case .starting, .finished, .failed:
            return false
        }
    }

    /// When the core must look again by itself: the next due check while a slot is free, the conditions' retry,
    /// the delivery loop's next pass, and at least every `longestSleep`.
    private func nextWake(now: Date) -> Date {
        var wake = now.addingTimeInterval(tunables.longestSleep)
        let room = configuration.http.concurrency - inFlight.count
        // While silences are read, their answer is the next event.
        // In a cluster, the next claim (none while one is outstanding: its answer is the next event).
        let due = cluster == nil ? plan.nextWake : (claiming == nil ? nextClaimAt : nil)
        if phase == .running, room > 0, !silencesReading, let due {
            wake = min(wake, due)
        }
        if batch == nil, !pendingConditions.isEmpty, !storeDown, let retry = conditionRetryAt {
            wake = min(wake, retry)
        }
        let deliveryTimed = phase == .running || (phase == .stopping && !drained)
        if deliveryTimed, !deliveryRunning, let due = deliveryDueAt { wake = min(wake, due) }
        return max(wake, now)
    }
}
