import PostgresNIO

/// The schema, created and migrated by the daemon as SQLite's is: each migration runs once, in order, under a
/// transaction-scoped advisory lock so that two nodes starting together do not both apply it.
extension PostgresStore {
    /// The migrations in order; the schema's version is how many have run.
    static let migrations: [[String]] = [
        [
            // Every commit takes the next number of `changes` for the rows it writes: a node copying the cluster's
            // history into its own state directory (`ClusterMirror`) asks for what changed after the last it copied.
            "CREATE SEQUENCE changes",
            """
            CREATE TABLE nodes (
                name text PRIMARY KEY,
                started_at timestamptz NOT NULL,
                seen_at timestamptz NOT NULL
            )
            """,
            // One row per watched domain. owner/epoch/lease_until: who checks it now and until when (database
            // time); state_version counts the commits that queued posts, and keys their outbox rows.
            """
            CREATE TABLE domains (
                domain text PRIMARY KEY,
                next_due timestamptz NOT NULL,
                owner text,
                epoch bigint NOT NULL DEFAULT 0,
                lease_until timestamptz,
                state_version bigint NOT NULL DEFAULT 0,
                checked_by text,
                checked_at timestamptz,
                entry bytea,
                verdict text,
                run_id bigint,
                run_last_seen timestamptz,
                run_checks int,
                changed bigint NOT NULL DEFAULT 0,
                changed_at timestamptz NOT NULL DEFAULT clock_timestamp()
            )
            """,
            "CREATE INDEX domains_next_due ON domains (next_due)",
            "CREATE INDEX domains_changed ON domains (changed)",
            // Few rows hold a lease at a time: the earliest end is found without a scan (the next claim's time).
            "CREATE INDEX domains_lease_until ON domains (lease_until) WHERE lease_until IS NOT NULL",
            // The history as on SQLite: runs of equal outcomes, first events, each document once per meaning.
            """
            CREATE TABLE runs (
                id bigserial PRIMARY KEY,
                domain text NOT NULL,
                first_seen timestamptz NOT NULL,
                last_seen timestamptz NOT NULL,
                checks int NOT NULL,
                verdict text NOT NULL,
                origin_hash text,
                cdn_hash text,
                key text NOT NULL,
                report bytea NOT NULL,
                opens_history boolean NOT NULL,
                changed bigint NOT NULL DEFAULT nextval('changes'),
                changed_at timestamptz NOT NULL DEFAULT clock_timestamp()
            )
            """,
            "CREATE INDEX runs_domain ON runs (domain, id)",
            "CREATE INDEX runs_changed ON runs (changed)",
            """
            CREATE TABLE timeline (
                id bigserial PRIMARY KEY,
                domain text NOT NULL,
                at timestamptz NOT NULL,
                kind text NOT NULL,
                detail bytea NOT NULL,
                changed bigint NOT NULL DEFAULT nextval('changes'),
                changed_at timestamptz NOT NULL DEFAULT clock_timestamp()
            )
            """,
            "CREATE INDEX timeline_domain ON timeline (domain, at)",
            "CREATE INDEX timeline_changed ON timeline (changed)",
            """
            CREATE TABLE documents (
                hash text PRIMARY KEY,
                canonical_text text NOT NULL,
                first_seen timestamptz NOT NULL,
                last_seen timestamptz NOT NULL,
                changed bigint NOT NULL DEFAULT nextval('changes'),
                changed_at timestamptz NOT NULL DEFAULT clock_timestamp()
            )
            """,
            "CREATE INDEX documents_changed ON documents (changed)",
            // Each node's own conditions (`monitor.*`: its resources, its network, its store).
            """
            CREATE TABLE conditions (
                node text NOT NULL,
                code text NOT NULL,
                body bytea NOT NULL,
                PRIMARY KEY (node, code)
            )
            """,
            // One row per (transition, webhook). The unique key is what makes an emission happen once, whatever a
            // node does twice. A node's own conditions have no state version: their delivery id keys them.
            """
            CREATE TABLE outbox (
                id bigserial PRIMARY KEY,
                domain text NOT NULL,
                state_version bigint,
                webhook text NOT NULL,
                ordinal int NOT NULL,
                delivery_id text NOT NULL UNIQUE,
                event_id text NOT NULL DEFAULT '',
                body bytea NOT NULL,
                created_at timestamptz NOT NULL DEFAULT now(),
                next_attempt timestamptz NOT NULL DEFAULT now(),
                attempts int NOT NULL DEFAULT 0,
                claimed_by text,
                claimed_until timestamptz,
                delivered_at timestamptz,
                delivered_by text,
                first_attempt_at timestamptz,
                dead_at timestamptz,
                last_status int,
                last_error text,
                UNIQUE (domain, state_version, webhook, ordinal)
            )
            """,
            "CREATE INDEX outbox_pending ON outbox (webhook, domain, id) WHERE delivered_at IS NULL AND dead_at IS NULL",
            """
            CREATE TABLE silences (
                id text PRIMARY KEY,
                starts_at timestamptz NOT NULL,
                ends_at timestamptz NOT NULL,
                body bytea NOT NULL
            )
            """,
        ],
        [
            // The entry as SQLite's columns (`EntryColumns`): `entry` stays for rows written before.
            """
            ALTER TABLE domains ADD COLUMN state bytea, ADD COLUMN alerts bytea, ADD COLUMN run_key text,
                ADD COLUMN origin_hash text, ADD COLUMN cdn_hash text
            """
        ],
    ]

    /// The schema version this binary writes.
    package static var schemaVersion: Int { migrations.count }

    /// Checks that the database can be reached and logged into, then creates or upgrades the schema; refuses a
    /// database a newer binary has upgraded.
    package func migrate() async throws(PostgresStoreError) {
        try await verifyConnection()
        let migrations = Self.migrations
        let known = Self.schemaVersion
        let logger = self.logger
        let found = try await transaction("migrating the schema") { connection -> Int in
            // Any constant: both nodes of a cluster take the same lock, only for this transaction.
            try await connection.query("SELECT pg_advisory_xact_lock(7365243411)", logger: logger)
            try await connection.query(
                "CREATE TABLE IF NOT EXISTS schema_version (version int NOT NULL)", logger: logger)
            var version = 0
            for try await (value) in try await connection.query(
                "SELECT version FROM schema_version", logger: logger
            ).decode(Int.self) {
                version = value
            }
            guard version <= migrations.count else { return version }
            if version == 0 {
                try await connection.query("INSERT INTO schema_version VALUES (0)", logger: logger)
            }
            for migration in migrations.dropFirst(version) {
                for statement in migration {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
            }
            try await connection.query(
                "UPDATE schema_version SET version = \(migrations.count)", logger: logger)
            return version
        }
        if found > known { throw .schemaTooNew(found: found, known: known) }
    }
}
