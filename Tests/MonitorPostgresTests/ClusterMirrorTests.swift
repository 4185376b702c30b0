import Foundation
import MonitorCore
import MonitorEvaluation
import MonitorPostgres
import MonitorStore
import TestSupport
import Testing

/// A node's copy of the cluster's history (`PostgresStore.changes`, `MonitorStore.mirror`): what another node
/// committed reaches the copy, rows too new to trust are read again but not written twice, and one unreadable row
/// does not stop the others.
@Suite("the cluster's history copied into a node's own database")
struct ClusterMirrorTests {
    @Test("another node's commit reaches the copy; an unsettled row is read again, not copied twice")
    func copiesAndRereads() async throws {
        let (server, location) = try await PostgresServer.freshDatabase()
        try await withStore(location, node: "b") { store in
            #expect(try await JournalFixtures.claimAndCommit(store, "copied.test", broken: true).isCommitted)
            let first = try await store.changes(after: ChangeCursor(), limit: 100)
            #expect(first.domains.map(\.domain) == ["copied.test"])
            #expect(first.runs.count == 1)
            // Written a moment ago: the cursor stays before it (PostgresStore.settle), so the next read has it again.
            #expect(first.next == ChangeCursor())
            let (unseen, seen) = first.unseen(SeenChanges())
            #expect(unseen.domains.count == 1)
            let again = try await store.changes(after: first.next, limit: 100)
            #expect(again.domains.map(\.domain) == ["copied.test"])
            #expect(again.unseen(seen).changes.domains.isEmpty, "a row read again was to be copied twice")
            // Told what it copied, the store leaves those rows out (their entries are not sent again), and the
            // cursor still waits for them to settle.
            let told = try await store.changes(after: first.next, seen: seen, limit: 100)
            #expect(told.domains.isEmpty && told.runs.isEmpty)
            #expect(told.next == ChangeCursor())
            #expect(told.unseen(seen).seen.domains == seen.domains)
            // Once settled, the cursor moves past them although they are left out.
            for table in ["domains", "runs"] {
                _ = try server.psql(
                    "UPDATE \(table) SET changed_at = now() - interval '1 minute'", database: location.database)
            }
            let settled = try await store.changes(after: first.next, seen: seen, limit: 100)
            #expect(settled.domains.isEmpty)
            #expect(settled.next.domains == seen.domains.max())
            #expect(settled.next.runs == seen.runs.max())

            let copy = try await MonitorStore.inMemory()
            #expect(try await copy.mirror(unseen).isEmpty)
            let state = try await copy.reader.domainState("copied.test")
            #expect(state?.verdict == .originBroken)
            #expect(try await copy.reader.alertStates(domain: "copied.test").count == 1)
        }
    }

    @Test("a row whose state or alert states cannot be read is named and skipped; the others are copied")
    func unreadableRowSkipped() async throws {
        let (server, location) = try await PostgresServer.freshDatabase()
        try await withStore(location, node: "b") { store in
            for domain in ["bad.test", "bad-alerts.test", "good.test"] {
                #expect(try await JournalFixtures.claimAndCommit(store, domain).isCommitted)
            }
            _ = try server.psql(
                """
                UPDATE domains SET state = '\\x00'::bytea WHERE domain = 'bad.test';
                UPDATE domains SET alerts = '\\x7b'::bytea WHERE domain = 'bad-alerts.test'
                """, database: location.database)
            let changes = try await store.changes(after: ChangeCursor(), limit: 100)
            let copy = try await MonitorStore.inMemory()
            #expect(try await copy.mirror(changes).sorted() == ["bad-alerts.test", "bad.test"])
            #expect(try await copy.reader.domainState("good.test")?.verdict == .ready)
            #expect(try await copy.reader.domainState("bad.test") == nil)
        }
    }

    @Test("a row written by the first schema (the whole entry in one value) is read by claims and copied")
    func firstSchemaRow() async throws {
        let (server, location) = try await PostgresServer.freshDatabase()
        try await withStore(location, node: "b") { store in
            #expect(try await JournalFixtures.claimAndCommit(store, "old.test", broken: true).isCommitted)
            let book = try await PostgresJournal(store: store).book(domains: ["old.test"])
            let entry = try #require(book["old.test"])
            #expect(entry.alerts.count == 1)
            let hex = try StoreCoding.encode(entry).map { String(format: "%02x", $0) }.joined()
            _ = try server.psql(
                """
                UPDATE domains SET entry = decode('\(hex)', 'hex'), state = NULL, alerts = NULL, run_key = NULL,
                    next_due = now()
                """, database: location.database)
            let claimed = try await PostgresJournal(store: store).claim(limit: 1, slack: 0, leaseFor: 60)
            #expect(claimed.grants.first?.entry == entry)
            #expect(claimed.unreadable.isEmpty)
            let copy = try await MonitorStore.inMemory()
            #expect(try await copy.mirror(try await store.changes(after: ChangeCursor(), limit: 100)).isEmpty)
            #expect(try await copy.reader.domainState("old.test")?.verdict == .originBroken)
            #expect(try await copy.reader.alertStates(domain: "old.test").count == 1)
        }
    }
}
