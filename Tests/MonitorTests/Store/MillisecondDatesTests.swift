import Foundation
import GRDB
import MonitorCore
import MonitorEvaluation
import TestSupport
import Testing

@testable import MonitorDaemon
@testable import MonitorStore

/// Times are INTEGER milliseconds since 1970 (`StoredInstant`); migration `v6-millisecond-dates` converted the text
/// every earlier version wrote. An instant written before the upgrade and the same instant written after must be
/// one value, or runs, retention, silences and the outbox would compare them wrongly.
@Suite("Millisecond dates")
struct MillisecondDatesTests {
    typealias R = StoreReports

    /// Random instants between 1970 and 2100 with a millisecond part, as milliseconds since 1970.
    static func randomMilliseconds(count: Int) -> [Int64] {
        var generator = SystemRandomNumberGenerator()
        return [0, 999, 1_800_000_000_000, 1_800_000_000_614, 4_102_444_799_999]
            + (0..<count).map { _ in Int64.random(in: 0...4_102_444_800_000, using: &generator) }
    }

    @Test("a date keeps its millisecond, and a date read back stores the same millisecond again")
    func roundTrip() {
        for milliseconds in Self.randomMilliseconds(count: 5_000) {
            let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
            let stored = StoredInstant(date)
            #expect(stored.milliseconds == milliseconds)
            #expect(StoredInstant(stored.date) == stored)
            #expect(abs(stored.date.timeIntervalSince(date)) < 0.000_001)
        }
        // Below the millisecond a date rounds to the nearest one, as GRDB's text did.
        #expect(StoredInstant(R.at(0).addingTimeInterval(0.0004)).date == R.at(0))
        #expect(StoredInstant(R.at(0).addingTimeInterval(0.0006)).milliseconds == 1_800_000_000_001)
        // Whole seconds read back exactly, so `RFC3339` prints the second it printed before.
        #expect(RFC3339.string(StoredInstant(R.at(1)).date) == RFC3339.string(R.at(1)))
    }

    @Test("v6 turns the text of every time column of a v5 database into the milliseconds StoredInstant writes")
    func upgradeFromVersion5() throws {
        let queue = try DatabaseQueue()
        try StoreSchema.migrator.migrate(queue, upTo: "v5-silences")
        let instants = Self.randomMilliseconds(count: 2_000)
        let dates = instants.map { Date(timeIntervalSince1970: Double($0) / 1000) }
        // Bound as `Date`: GRDB's text, which is what 0.2.0 wrote (its `StoredDate` matched it to the character).
        try queue.write { db in
            for date in dates {
                try db.execute(
                    sql: "INSERT INTO timeline (domain, at, kind, detail_json) VALUES ('example.com', ?, 'x', x'')",
                    arguments: [date])
            }
            try db.execute(
                sql: "INSERT INTO documents VALUES ('sha256:a', '{}', ?1, ?1)", arguments: [dates[1]])
            try db.execute(
                sql: """
                    INSERT INTO runs (domain, first_seen, last_seen, checks, verdict, key, report_json)
                    VALUES ('example.com', ?, ?, 2, 'ready', '', x'')
                    """,
                arguments: [dates[0], dates[1]])
            try db.execute(
                sql: "INSERT INTO heartbeat VALUES (1, 42, 'monitor-1', ?, ?, '0.2.0')",
                arguments: [dates[2], dates[3]])
            try db.execute(
                sql: """
                    INSERT INTO outbox (delivery_id, event_id, webhook, event_json, state, attempts, first_attempt_at,
                      next_attempt_at, created_at, delivered_at, finished_at)
                    VALUES ('dlv_1', 'evt_1', 'ops', x'', 'delivered', 1, ?1, ?1, ?1, ?2, ?2),
                      ('dlv_2', 'evt_2', 'ops', x'', 'pending', 0, NULL, ?1, ?1, NULL, NULL)
                    """,
                arguments: [dates[2], dates[3]])
            try db.execute(
                sql: """
                    INSERT INTO silences (domains_json, starts_at, ends_at, author, reason, created_at)
                    VALUES (NULL, ?, ?, 'ops', 'move', ?)
                    """,
                arguments: [dates[1], dates[3], dates[0]])
        }
        try StoreSchema.migrator.migrate(queue, upTo: "v6-millisecond-dates")

        try queue.read { db in
            let converted = try Int64.fetchAll(db, sql: "SELECT at FROM timeline ORDER BY id")
            #expect(converted == instants)
            #expect(dates.map { StoredInstant($0).milliseconds } == instants)
            // Every DATETIME column had a value to convert: none is left out of v6, none is text any more.
            let types = try StoreMigrationTests.timeColumnTypes(db)
            #expect(types.count == 15)
            #expect(types.filter { $0.value != ["integer"] } == [:])
            let outbox = try Row.fetchAll(
                db, sql: "SELECT first_attempt_at, delivered_at FROM outbox ORDER BY id"
            ).map { row in
                [row.optionalDate("first_attempt_at"), row.optionalDate("delivered_at")].map {
                    $0.map { StoredInstant($0).milliseconds }
                }
            }
            #expect(outbox == [[instants[2], instants[3]], [nil, nil]])
            let silence = try #require(try Row.fetchOne(db, sql: "SELECT * FROM silences").map(StoreReader.silence))
            #expect(StoredInstant(silence.endsAt).milliseconds == instants[3])
        }
    }

    @Test("text that is not a time stops the upgrade with a message naming the file, column and row")
    func unreadableTextStopsTheUpgrade() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = (directory as NSString).appendingPathComponent(StoreSchema.fileName)
        let queue = try DatabaseQueue(path: path)
        try StoreSchema.migrator.migrate(queue, upTo: "v5-silences")
        try await queue.write { db in
            try db.execute(
                sql: """
                    INSERT INTO timeline (domain, at, kind, detail_json) VALUES ('example.com', ?, 'x', x''),
                      ('example.com', 'yesterday', 'x', x'')
                    """,
                arguments: [R.at(0)])
        }
        try queue.close()

        let error = await #expect(throws: StoreError.self) { try await MonitorStore.open(directory: directory) }
        #expect(
            error?.description == "the state database \(path) holds an unreadable value: "
                + "timeline.at of row 2 is 'yesterday', not a time; correct or delete that row "
                + "(sqlite3 FILE \"DELETE FROM timeline WHERE rowid = 2\") and start the daemon again")
        // Nothing of the upgrade was kept: the first row is still the text 0.2.0 wrote.
        let kept = try await DatabaseQueue(path: path).read { db in
            try String.fetchOne(db, sql: "SELECT typeof(at) FROM timeline WHERE id = 1")
        }
        #expect(kept == "text")
    }

    @Test("every write path stores its times as integers")
    func everyWriteIsAnInteger() async throws {
        try await withTemporaryStore(.onDisk) { store, _ in
            try await store.record(report: R.report(at: 0, origin: "sha256:a", cdn: "sha256:a"))
            try await store.record(report: R.report(at: 1, origin: "sha256:b", cdn: "sha256:a", verdict: .cdnStale))
            try await store.beat(pid: 42, at: R.at(1), version: "test")
            try await store.enqueue(
                ["1", "2", "3"].map {
                    OutboxInsert(
                        deliveryID: "dlv_\($0)", eventID: "evt_\($0)", webhook: "ops", eventJSON: Data("{}".utf8),
                        createdAt: R.at(1), nextAttemptAt: R.at(1))
                })
            let ids = try await store.allDeliveries().map(\.id)
            #expect(try await store.beginAttempt(id: ids[0], until: R.at(2)))
            try await store.enqueue([
                OutboxInsert(
                    deliveryID: "dlv_sending", eventID: "evt_sending", webhook: "ops", eventJSON: Data("{}".utf8),
                    createdAt: R.at(1), nextAttemptAt: R.at(9))
            ])
            let sending = try #require(try await store.allDeliveries().last?.id)
            #expect(try await store.beginAttempt(id: sending, until: R.at(2)))
            try await store.markDelivered(id: ids[0], at: R.at(2), status: 200)
            try await store.markRetry(id: ids[1], at: R.at(2), nextAttemptAt: R.at(3), status: 503, error: "busy")
            try await store.markDead(id: ids[2], at: R.at(2), status: 410, error: "gone")
            let silence = try await store.addSilence(
                domains: nil, code: nil, from: R.at(1), until: R.at(60), author: "ops", reason: "move", at: R.at(1))
            _ = try await store.expireSilence(id: try #require(Int64(silence.id)), by: "ops", at: R.at(2))

            let types = try await DatabaseQueue(path: store.path).read { db in
                try StoreMigrationTests.timeColumnTypes(db)
            }
            // With v7's `domain_state.run_last_seen`, written by every check, and v8's `outbox.sending_until`.
            #expect(types.count == 17)
            #expect(types.filter { $0.value != ["integer"] } == [:])
            // Compared as integers: the retried delivery is due at its next attempt, not a millisecond before.
            #expect(try await store.dueDeliveries(now: R.at(3).addingTimeInterval(-0.001)).isEmpty)
            #expect(try await store.dueDeliveries(now: R.at(3)).map(\.id) == [ids[1]])
            #expect(try await store.nextAttemptTime() == R.at(3))
        }
    }
}
