import Foundation
import MonitorCore
import MonitorEvaluation
import MonitorPostgres
import TestSupport
import Testing

/// A batch's checks are written by a few statements for all of them (`CheckBatch`); what a savepoint per record
/// gave before still holds, against a real PostgreSQL 15.
@Suite("PostgreSQL check batches")
struct CheckBatchTests {
    @Test("a record the server refuses fails alone; the other checks of its batch are kept")
    func refusedRecordFailsAlone() async throws {
        try await withTwoNodes { server, location, a, _ in
            // PostgreSQL's text refuses a NUL byte (SQLite would keep it).
            let results = try await PostgresJournal(store: a).append([
                JournalFixtures.check("good.test", at: 0, broken: true),
                JournalFixtures.check("bad\u{0}.test", at: 0),
                JournalFixtures.check("fine.test", at: 0),
            ])
            #expect(results.map(\.isCommitted) == [true, false, true])
            guard case .failed(let reason) = results[1] else {
                Issue.record("the refused record should fail, not \(results[1])")
                return
            }
            #expect(reason.contains("SQLSTATE"), "\(reason)")
            let rows = try server.psql(
                """
                SELECT string_agg(domain, ',' ORDER BY domain), (SELECT count(*) FROM runs),
                       (SELECT count(*) FROM outbox)
                FROM domains
                """, database: location.database)
            #expect(rows == "fine.test,good.test|2|1")
        }
    }

    @Test("a batch holding one domain twice writes both checks in order")
    func sameDomainTwice() async throws {
        try await withTwoNodes { server, location, a, _ in
            let results = try await PostgresJournal(store: a).append([
                JournalFixtures.check("twice.test", at: 0), JournalFixtures.check("twice.test", at: 1, broken: true),
            ])
            #expect(results.map(\.isCommitted) == [true, true])
            let rows = try server.psql(
                "SELECT verdict, (SELECT count(*) FROM runs), (SELECT count(*) FROM outbox) FROM domains",
                database: location.database)
            #expect(rows == "origin_broken|2|1")
        }
    }
}
