import GRDB

/// The database schema, as an ordered list of migrations; only the daemon runs them.
///
/// Times in columns are INTEGER milliseconds since 1970 UTC (`StoredInstant`), which sort and compare as time; the
/// columns v1–v5 declared as DATETIME held GRDB's text form (`2026-11-21 19:12:03.000`, UTC) until v6. A new time
/// column is declared `.datetime` too: the tests find every time column by that declaration. JSON columns use
/// `StoreCoding` (deflated; rows written before compression, and those the migrations copy, are plain JSON, which it
/// reads too), except `outbox.event_json`, the webhook body as sent (`MonitorJSON`). Never edit a registered
/// migration: add a new one.
package enum StoreSchema {
    /// The file inside the state directory.
    package static let fileName = "aasa-monitor.sqlite"

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try createHistory(db)
            try createCurrentState(db)
            try createOutbox(db)
        }
        migrator.registerMigration("v2-runs") { db in
            try createRuns(db)
        }
        migrator.registerMigration("v3-lean") { db in
            try leanRuns(db)
        }
        migrator.registerMigration("v4-lean-history") { db in
            try leanHistory(db)
        }
        migrator.registerMigration("v5-silences") { db in
            try createSilences(db)
        }
        migrator.registerMigration("v6-millisecond-dates") { db in
            try storeMillisecondDates(db)
        }
        migrator.registerMigration("v7-open-run-in-state") { db in
            try keepOpenRunInState(db)
        }
        migrator.registerMigration("v8-outbox-sending") { db in
            // Until when an attempt is on the wire: `outbox drop` and `retry` refuse such a row (issue 32 §4).
            try db.alter(table: "outbox") { table in table.add(column: "sending_until", .datetime) }
        }
        return migrator
    }

    /// Documents once per meaning, checks with their findings, and the timeline.
    private static func createHistory(_ db: Database) throws {
        try db.create(table: "documents") { table in
            table.primaryKey("hash", .text)
            table.column("canonical_text", .text).notNull()
            table.column("first_seen", .datetime).notNull()
            // Moved when a run starts with the document (a run or the state referring to it keeps it too), so
            // retention keeps what is still served.
            table.column("last_seen", .datetime).notNull()
        }
        try db.create(table: "checks") { table in
            table.autoIncrementedPrimaryKey("id")
            table.column("domain", .text).notNull()
            table.column("checked_at", .datetime).notNull()
            table.column("duration", .double).notNull()
            table.column("verdict", .text).notNull()
            table.column("origin_hash", .text)
            table.column("cdn_hash", .text)
            table.column("report_json", .blob).notNull()
        }
        try db.create(index: "checks_by_domain", on: "checks", columns: ["domain", "checked_at"])
        try db.create(index: "checks_by_time", on: "checks", columns: ["checked_at"])
        try db.create(table: "findings") { table in
            table.column("check_id", .integer).notNull().indexed()
                .references("checks", onDelete: .cascade)
            table.column("code", .text).notNull()
            table.column("severity", .text).notNull()
            table.column("source", .text).notNull()
            table.column("subject", .text).notNull()
            table.column("message", .text).notNull()
            table.column("detail_json", .blob).notNull()
        }
        try db.create(table: "timeline") { table in
            table.autoIncrementedPrimaryKey("id")
            table.column("domain", .text).notNull()
            table.column("at", .datetime).notNull()
            table.column("kind", .text).notNull()
            table.column("detail_json", .blob).notNull()
        }
        try db.create(index: "timeline_by_domain", on: "timeline", columns: ["domain", "at"])
    }

    /// History by change, not by repetition: consecutive checks with the same outcome are one run.
    ///
    /// Converts v1's one row per check: consecutive checks of a domain with the same verdict and hashes become one
    /// run that keeps the first check's report; their findings live in that report. Converted runs get an empty
    /// key, so the first check after the upgrade starts a new run rather than guessing it repeats an old one.
    private static func createRuns(_ db: Database) throws {
        try db.create(table: "runs") { table in
            table.autoIncrementedPrimaryKey("id")
            table.column("domain", .text).notNull()
            table.column("first_seen", .datetime).notNull()
            table.column("last_seen", .datetime).notNull()
            table.column("checks", .integer).notNull()
            table.column("verdict", .text).notNull()
            table.column("origin_hash", .text)
            table.column("cdn_hash", .text)
            // RunKey of the run's outcome: a check with the same key extends the run.
            table.column("key", .text).notNull()
            table.column("report_json", .blob).notNull()
        }
        try db.execute(
            sql: """
                WITH ordered AS (
                  SELECT *, CASE WHEN verdict IS lag(verdict) OVER w AND origin_hash IS lag(origin_hash) OVER w
                                  AND cdn_hash IS lag(cdn_hash) OVER w THEN 0 ELSE 1 END AS starts
                  FROM checks WINDOW w AS (PARTITION BY domain ORDER BY checked_at, id)),
                grouped AS (
                  SELECT *, sum(starts) OVER (PARTITION BY domain ORDER BY checked_at, id) AS run FROM ordered),
                spans AS (
                  SELECT domain, min(id) AS first_id, min(checked_at) AS first_seen, max(checked_at) AS last_seen,
                    count(*) AS checks
                  FROM grouped GROUP BY domain, run)
                INSERT INTO runs (domain, first_seen, last_seen, checks, verdict, origin_hash, cdn_hash, key, report_json)
                SELECT spans.domain, spans.first_seen, spans.last_seen, spans.checks, first.verdict, first.origin_hash,
                  first.cdn_hash, '', first.report_json
                FROM spans JOIN checks AS first ON first.id = spans.first_id
                ORDER BY spans.first_seen, spans.first_id
                """)
        try db.drop(table: "findings")
        try db.drop(table: "checks")
        try db.create(index: "runs_by_domain", on: "runs", columns: ["domain", "first_seen"])
        try db.create(index: "runs_by_end", on: "runs", columns: ["last_seen"])
        try db.alter(table: "domain_state") { table in
            table.add(column: "run_id", .integer)
            table.add(column: "run_key", .text)
        }
        try db.execute(
            sql: """
                UPDATE domain_state SET run_key = '',
                  run_id = (SELECT max(id) FROM runs WHERE runs.domain = domain_state.domain)
                """)
    }

    /// Less written per check and per domain.
    ///
    /// - `runs_by_end` moved an index entry on every repeated check (each moves `last_seen`) to serve only
    ///   retention, which runs every few minutes and scans the runs table instead (runs are kept by change, so the
    ///   table stays small).
    /// - `domain_state` is rebuilt `WITHOUT ROWID`: its rows live in the domain's key, with no second index
    ///   repeating every name. Its `run_key` copy is gone (the open run's key is read from the run), and its hash
    ///   columns now hold a hash only when it differs from the open run's (the last valid origin while the origin is
    ///   broken): the open run already keeps that document from retention.
    private static func leanRuns(_ db: Database) throws {
        try db.drop(index: "runs_by_end")
        try db.create(table: "domain_state_lean", options: .withoutRowID) { table in
            table.primaryKey("domain", .text)
            table.column("state_json", .blob).notNull()
            table.column("origin_hash", .text)
            table.column("cdn_hash", .text)
            table.column("updated_at", .datetime).notNull()
            table.column("run_id", .integer)
        }
        try db.execute(
            sql: """
                INSERT INTO domain_state_lean (domain, state_json, origin_hash, cdn_hash, updated_at, run_id)
                SELECT domain, state_json, origin_hash, cdn_hash, updated_at, run_id FROM domain_state
                """)
        try db.drop(table: "domain_state")
        try db.rename(table: "domain_state_lean", to: "domain_state")
    }

    /// A new domain costs less, and every run less.
    ///
    /// - `runs.opens_history` marks a domain's first run, which stands for the first check's `verdict.changed` and
    ///   `origin.first_seen` (`FirstRunEvents`): they are no longer written as timeline rows. Older runs keep 0 and
    ///   their events keep their rows.
    /// - Hashes and run keys are stored as bytes (`StoredHex`); the text rows written before are converted here,
    ///   since a blob and its text never compare equal.
    /// - `domain_state.updated_at` is gone: nothing read it, and the state's own `lastCheck` says the same.
    private static func leanHistory(_ db: Database) throws {
        try db.alter(table: "runs") { table in
            table.add(column: "opens_history", .boolean).notNull().defaults(to: false)
        }
        try db.alter(table: "domain_state") { table in table.drop(column: "updated_at") }
        let columns: [(table: String, column: String, form: StoredHex)] = [
            ("documents", "hash", .documentHash), ("runs", "origin_hash", .documentHash),
            ("runs", "cdn_hash", .documentHash), ("runs", "key", .runKey),
            ("domain_state", "origin_hash", .documentHash), ("domain_state", "cdn_hash", .documentHash),
        ]
        for (table, column, form) in columns {
            let texts = try String.fetchAll(
                db, sql: "SELECT DISTINCT \(column) FROM \(table) WHERE typeof(\(column)) = 'text'")
            let update = try db.makeStatement(sql: "UPDATE \(table) SET \(column) = ? WHERE \(column) = ?")
            for text in texts {
                let value = form.value(text)
                if case .string = value.storage { continue }
                try update.execute(arguments: [value, text])
            }
        }
    }

    /// Silences added with `aasa-monitor silence add`, by the daemon's user or another process while it runs.
    ///
    /// `domains_json` is a JSON array of A-labels, `NULL` for every domain (`--all`); expiring a silence moves its
    /// `ends_at` to the moment it was expired, so the row still says who silenced what. Indexed by `ends_at`: each
    /// check reads the silences not yet ended.
    static func createSilences(_ db: Database) throws {
        try db.create(table: "silences") { table in
            table.autoIncrementedPrimaryKey("id")
            table.column("domains_json", .text)
            table.column("code", .text)
            table.column("starts_at", .datetime).notNull()
            table.column("ends_at", .datetime).notNull()
            table.column("author", .text).notNull()
            table.column("reason", .text).notNull()
            table.column("created_at", .datetime).notNull()
            table.column("expired_by", .text)
        }
        try db.create(index: "silences_by_end", on: "silences", columns: ["ends_at"])
    }

    /// Every time column as INTEGER milliseconds since 1970 UTC (`StoredInstant`) instead of GRDB's 23-byte text.
    ///
    /// The columns keep their DATETIME declaration: its NUMERIC affinity stores an integer as an integer (tested with
    /// `typeof`), so no table is rebuilt. SQLite's `julianday` reads the text to the millisecond, and the rounding
    /// removes the floating-point error of the scaling. Only text is converted (NULL stays NULL), so an integer is
    /// never read as a Julian day. Text `julianday` cannot read stops the migration, naming the row, rather than
    /// becoming NULL or a wrong time; the daemon then does not start on a history it would misread.
    private static func storeMillisecondDates(_ db: Database) throws {
        let columns: [(table: String, column: String)] = [
            ("documents", "first_seen"), ("documents", "last_seen"), ("runs", "first_seen"), ("runs", "last_seen"),
            ("timeline", "at"), ("heartbeat", "started_at"), ("heartbeat", "beat_at"), ("outbox", "first_attempt_at"),
            ("outbox", "next_attempt_at"), ("outbox", "created_at"), ("outbox", "delivered_at"),
            ("outbox", "finished_at"), ("silences", "starts_at"), ("silences", "ends_at"), ("silences", "created_at"),
        ]
        for (table, column) in columns {
            if let unreadable = try Row.fetchOne(
                db,
                sql: """
                    SELECT rowid AS row, \(column) AS value FROM \(table)
                    WHERE typeof(\(column)) = 'text' AND julianday(\(column)) IS NULL LIMIT 1
                    """)
            {
                let row: Int64 = unreadable["row"]
                let text: String = unreadable["value"]
                let path = try String.fetchOne(db, sql: "SELECT file FROM pragma_database_list WHERE name = 'main'")
                throw StoreError(
                    .corruptValue(
                        "\(table).\(column) of row \(row) is '\(text)', not a time; correct or delete that row "
                            + "(sqlite3 FILE \"DELETE FROM \(table) WHERE rowid = \(row)\") and start the daemon again"),
                    path: path ?? "")
            }
            try db.execute(
                sql: """
                    UPDATE \(table)
                    SET \(column) = CAST(round((julianday(\(column)) - 2440587.5) * 86400000.0) AS INTEGER)
                    WHERE typeof(\(column)) = 'text'
                    """)
        }
    }

    /// A repeated check writes only its domain's state row: the open run's `last_seen` and `checks` live there
    /// (`run_last_seen`, `run_checks`) and are copied into the run's row when the run ends.
    ///
    /// Each check moved its open run's `last_seen` and `checks` in `runs` as well, so it dirtied a second page, in
    /// a table it otherwise only appends to; and the row grew a byte at its second check (SQLite stores 0 and 1 in
    /// no bytes), which split the pages the first checks had filled. Readers take the open run's figures from the
    /// state through the view `run_spans`, which is `runs` with them filled in. The migration copies every open
    /// run's figures into its state row.
    private static func keepOpenRunInState(_ db: Database) throws {
        try db.alter(table: "domain_state") { table in
            table.add(column: "run_last_seen", .datetime)
            table.add(column: "run_checks", .integer)
        }
        try db.execute(
            sql: """
                UPDATE domain_state
                SET run_last_seen = (SELECT last_seen FROM runs WHERE runs.id = domain_state.run_id),
                  run_checks = (SELECT checks FROM runs WHERE runs.id = domain_state.run_id)
                WHERE run_id IS NOT NULL
                """)
        try db.execute(
            sql: """
                CREATE VIEW run_spans AS
                SELECT runs.id, runs.domain, runs.first_seen,
                  coalesce(open.run_last_seen, runs.last_seen) AS last_seen,
                  coalesce(open.run_checks, runs.checks) AS checks,
                  runs.verdict, runs.origin_hash, runs.cdn_hash, runs.opens_history
                FROM runs LEFT JOIN domain_state AS open ON open.domain = runs.domain AND open.run_id = runs.id
                """)
    }

    /// Per-domain state, alert states and the daemon's heartbeat.
    private static func createCurrentState(_ db: Database) throws {
        try db.create(table: "domain_state") { table in
            table.primaryKey("domain", .text)
            table.column("state_json", .blob).notNull()
            // Copies of the state's hashes, so retention can keep their documents without parsing JSON.
            table.column("origin_hash", .text)
            table.column("cdn_hash", .text)
            table.column("updated_at", .datetime).notNull()
        }
        try db.create(table: "heartbeat") { table in
            table.primaryKey("id", .integer).check { $0 == 1 }
            table.column("pid", .integer).notNull()
            table.column("host", .text).notNull()
            table.column("started_at", .datetime).notNull()
            table.column("beat_at", .datetime).notNull()
            table.column("version", .text).notNull()
        }
        try db.create(table: "alert_state") { table in
            table.column("domain", .text).notNull()
            table.column("code", .text).notNull()
            table.column("source", .text).notNull()
            table.column("subject", .text).notNull()
            table.column("state_json", .blob).notNull()
            table.primaryKey(["domain", "code", "source", "subject"])
        }
    }

    /// Webhook deliveries, written before any attempt (at-least-once).
    private static func createOutbox(_ db: Database) throws {
        try db.create(table: "outbox") { table in
            table.autoIncrementedPrimaryKey("id")
            table.column("delivery_id", .text).notNull().unique()
            table.column("event_id", .text).notNull()
            table.column("webhook", .text).notNull()
            table.column("event_json", .blob).notNull()
            table.column("state", .text).notNull().defaults(to: OutboxState.pending.rawValue)
                .check { [OutboxState.pending, .delivered, .dead].map(\.rawValue).contains($0) }
            table.column("attempts", .integer).notNull().defaults(to: 0)
            table.column("first_attempt_at", .datetime)
            table.column("next_attempt_at", .datetime).notNull()
            table.column("last_status", .integer)
            table.column("last_error", .text)
            table.column("created_at", .datetime).notNull()
            table.column("delivered_at", .datetime)
            // When it became delivered or dead, for retention.
            table.column("finished_at", .datetime)
        }
        try db.create(index: "outbox_due", on: "outbox", columns: ["state", "next_attempt_at"])
    }
}

/// The store's tables, for counts in diagnostics and tests.
package enum StoreTable: String, Sendable, CaseIterable {
    case documents, runs, timeline, heartbeat, outbox, silences
    case domainState = "domain_state"
    case alertState = "alert_state"
}
