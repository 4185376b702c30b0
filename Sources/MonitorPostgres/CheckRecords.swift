import Foundation
import MonitorCore
import MonitorEvaluation
import MonitorStore
import PostgresNIO

/// The arrays of one `CheckBatch.write` statement.
struct CheckRecords {
    var documentHashes: [String] = []
    var documentTexts: [String] = []
    var documentTimes: [Date] = []
    var closedIDs: [Int64] = []
    var closedLastSeen: [Date] = []
    var closedChecks: [Int] = []
    var runIDs: [Int64] = []
    var runDomains: [String] = []
    var runFirstSeen: [Date] = []
    var runLastSeen: [Date] = []
    var runChecks: [Int] = []
    var runVerdicts: [String] = []
    /// `''` for none: postgres-nio sends no `NULL` inside an array; hashes are never empty.
    var runOriginHashes: [String] = []
    var runCDNHashes: [String] = []
    var runKeys: [String] = []
    var runReports: [ByteBuffer] = []
    var runOpensHistory: [Bool] = []
    var domains: [String] = []
    var nextIns: [Double] = []
    var queues: [Int64] = []
    var states: [ByteBuffer] = []
    var alerts: [ByteBuffer] = []
    var runKeysOfDomains: [String] = []
    var originHashes: [String] = []
    var cdnHashes: [String] = []
    var verdicts: [String] = []
    var domainRunIDs: [Int64] = []
    var domainRunLastSeen: [Date] = []
    var domainRunChecks: [Int] = []
    var timelineDomains: [String] = []
    var timelineAt: [Date] = []
    var timelineKinds: [String] = []
    var timelineDetails: [ByteBuffer] = []
    var outboxDomains: [String] = []
    var outboxVersions: [Int64] = []
    var outboxWebhooks: [String] = []
    var outboxOrdinals: [Int] = []
    var outboxDeliveryIDs: [String] = []
    var outboxEventIDs: [String] = []
    var outboxBodies: [ByteBuffer] = []

    /// Adds one held check; answers the run it extended or opened.
    mutating func add(_ item: CheckBatch.Item, row: CheckBatch.Held) throws -> RunMark {
        let report = item.report
        let outcome = item.outcome
        let run: RunMark
        let checks: Int
        let lastSeen: Date
        switch outcome.run {
        case .extend(let mark, let seen):
            run = mark
            checks = (row.runChecks ?? 0) + 1
            lastSeen = seen
        case .start(let new):
            guard let id = row.newRunID else { throw CheckBatchError.noRunID(report.domain) }
            // Many domains may serve one document (a platform's template): its row is moved at most once a day,
            // or every node's commits would queue on that one row's lock. Retention counts in days.
            for (hash, text) in outcome.documents.sorted(by: { $0.key < $1.key })
            where !documentHashes.contains(hash) {
                documentHashes.append(hash)
                documentTexts.append(text)
                documentTimes.append(report.checkedAt)
            }
            // The run that ends gets its figures from the domain's row, as on SQLite.
            if let open = row.runID, let seen = row.runLastSeen, let count = row.runChecks {
                closedIDs.append(open)
                closedLastSeen.append(seen)
                closedChecks.append(count)
            }
            runIDs.append(id)
            runDomains.append(report.domain)
            runFirstSeen.append(new.firstSeen)
            runLastSeen.append(new.lastSeen)
            runChecks.append(new.checks)
            runVerdicts.append(new.verdict.rawValue)
            runOriginHashes.append(new.originHash ?? "")
            runCDNHashes.append(new.cdnHash ?? "")
            runKeys.append(new.key)
            runReports.append(try StoreCoding.encode(new.report).bytea)
            runOpensHistory.append(new.opensHistory)
            run = RunMark(id: id, key: new.key)
            checks = new.checks
            lastSeen = new.lastSeen
        }
        let queued: Int64 = outcome.deliveries.isEmpty ? 0 : 1
        domains.append(report.domain)
        nextIns.append(item.fence?.nextCheckIn ?? 0)
        queues.append(queued)
        let columns = try EntryColumns(outcome, run: run)
        states.append(columns.state)
        alerts.append(columns.alerts)
        runKeysOfDomains.append(columns.runKey)
        originHashes.append(columns.originHash)
        cdnHashes.append(columns.cdnHash)
        verdicts.append(outcome.state.verdict.rawValue)
        domainRunIDs.append(run.id)
        domainRunLastSeen.append(lastSeen)
        domainRunChecks.append(checks)
        for event in FirstRunEvents.stored(outcome.timeline, run: outcome.run) {
            timelineDomains.append(report.domain)
            timelineAt.append(event.at)
            timelineKinds.append(event.kind.rawValue)
            timelineDetails.append(try StoreCoding.encode(event.detail).bytea)
        }
        for (ordinal, delivery) in outcome.deliveries.enumerated() {
            outboxDomains.append(report.domain)
            outboxVersions.append(row.stateVersion + queued)
            outboxWebhooks.append(delivery.webhook)
            outboxOrdinals.append(ordinal)
            outboxDeliveryIDs.append(delivery.deliveryID)
            outboxEventIDs.append(delivery.event.id)
            outboxBodies.append(ByteBuffer(bytes: try MonitorJSON.encoder().encode(delivery.event)))
        }
        return run
    }

    /// Every record in one statement; rows keep the arrays' order (`WITH ORDINALITY`), so outbox ids follow the
    /// order of the deliveries, as the delivery loop sends them.
    func statement(node: String) -> PostgresQuery {
        """
        WITH documents_added AS (
            INSERT INTO documents (hash, canonical_text, first_seen, last_seen)
            SELECT hash, text, at, at FROM unnest(\(documentHashes)::text[], \(documentTexts)::text[],
                                                  \(documentTimes)::timestamptz[]) AS u(hash, text, at)
            ON CONFLICT (hash) DO NOTHING RETURNING 1
        ), documents_touched AS (
            UPDATE documents AS t SET last_seen = u.at, changed = nextval('changes'), changed_at = clock_timestamp()
            FROM unnest(\(documentHashes)::text[], \(documentTimes)::timestamptz[]) AS u(hash, at)
            WHERE t.hash = u.hash AND t.last_seen < u.at - interval '1 day' RETURNING 1
        ), runs_closed AS (
            UPDATE runs AS r SET last_seen = u.last_seen, checks = u.checks, changed = nextval('changes'),
                changed_at = clock_timestamp()
            FROM unnest(\(closedIDs)::bigint[], \(closedLastSeen)::timestamptz[], \(closedChecks)::int[])
                 AS u(id, last_seen, checks)
            WHERE r.id = u.id RETURNING 1
        ), runs_opened AS (
            INSERT INTO runs (id, domain, first_seen, last_seen, checks, verdict, origin_hash, cdn_hash, key, report,
                              opens_history)
            SELECT id, domain, first_seen, last_seen, checks, verdict, nullif(origin, ''), nullif(cdn, ''), key,
                   report, opens
            FROM unnest(\(runIDs)::bigint[], \(runDomains)::text[], \(runFirstSeen)::timestamptz[],
                        \(runLastSeen)::timestamptz[], \(runChecks)::int[], \(runVerdicts)::text[],
                        \(runOriginHashes)::text[], \(runCDNHashes)::text[], \(runKeys)::text[],
                        \(runReports)::bytea[], \(runOpensHistory)::bool[])
                 WITH ORDINALITY AS u(id, domain, first_seen, last_seen, checks, verdict, origin, cdn, key, report,
                                      opens, n)
            ORDER BY n RETURNING 1
        ), domains_written AS (
            UPDATE domains AS d
            SET next_due = now() + make_interval(secs => u.next_in), owner = NULL, lease_until = NULL,
                state_version = d.state_version + u.queues, checked_by = \(node), checked_at = now(),
                entry = NULL, state = u.state, alerts = nullif(u.alerts, ''::bytea), run_key = u.run_key,
                origin_hash = nullif(u.origin, ''), cdn_hash = nullif(u.cdn, ''), verdict = u.verdict,
                run_id = u.run_id, run_last_seen = u.last_seen, run_checks = u.checks, changed = nextval('changes'),
                changed_at = clock_timestamp()
            FROM unnest(\(domains)::text[], \(nextIns)::float8[], \(queues)::bigint[], \(states)::bytea[],
                        \(alerts)::bytea[], \(runKeysOfDomains)::text[], \(originHashes)::text[],
                        \(cdnHashes)::text[], \(verdicts)::text[], \(domainRunIDs)::bigint[],
                        \(domainRunLastSeen)::timestamptz[], \(domainRunChecks)::int[])
                 AS u(domain, next_in, queues, state, alerts, run_key, origin, cdn, verdict, run_id, last_seen,
                      checks)
            WHERE d.domain = u.domain RETURNING 1
        ), timeline_added AS (
            INSERT INTO timeline (domain, at, kind, detail)
            SELECT domain, at, kind, detail
            FROM unnest(\(timelineDomains)::text[], \(timelineAt)::timestamptz[], \(timelineKinds)::text[],
                        \(timelineDetails)::bytea[]) WITH ORDINALITY AS u(domain, at, kind, detail, n)
            ORDER BY n RETURNING 1
        ), outbox_added AS (
            INSERT INTO outbox (domain, state_version, webhook, ordinal, delivery_id, event_id, body)
            SELECT domain, version, webhook, ordinal, delivery_id, event_id, body
            FROM unnest(\(outboxDomains)::text[], \(outboxVersions)::bigint[], \(outboxWebhooks)::text[],
                        \(outboxOrdinals)::int[], \(outboxDeliveryIDs)::text[], \(outboxEventIDs)::text[],
                        \(outboxBodies)::bytea[])
                 WITH ORDINALITY AS u(domain, version, webhook, ordinal, delivery_id, event_id, body, n)
            ORDER BY n
            ON CONFLICT DO NOTHING RETURNING 1
        )
        SELECT 1
        """
    }
}
