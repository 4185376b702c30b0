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

    @Test("a row whose entry cannot be read is named and skipped; the others are copied")
    func unreadableRowSkipped() async throws {
        let (server, location) = try await PostgresServer.freshDatabase()
        try await withStore(location, node: "b") { store in
            #expect(try await JournalFixtures.claimAndCommit(store, "bad.test").isCommitted)
            #expect(try await JournalFixtures.claimAndCommit(store, "good.test").isCommitted)
            _ = try server.psql(
                "UPDATE domains SET entry = '\\x00'::bytea WHERE domain = 'bad.test'", database: location.database)
            let changes = try await store.changes(after: ChangeCursor(), limit: 100)
            let copy = try await MonitorStore.inMemory()
            #expect(try await copy.mirror(changes) == ["bad.test"])
            #expect(try await copy.reader.domainState("good.test")?.verdict == .ready)
            #expect(try await copy.reader.domainState("bad.test") == nil)
        }
    }
}
