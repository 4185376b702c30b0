import Foundation
import MonitorCore
import MonitorEvaluation
import MonitorPostgres
import TestSupport
import Testing

/// What every node shares: silences, the members list, the schema; and what no message shows: the password.
@Suite("PostgreSQL shared state")
struct ClusterSharedStateTests {
    @Test("a silence added on one node is in force on the other")
    func silencesAreShared() async throws {
        try await withTwoNodes { _, _, a, b in
            let now = Date()
            let silence = Silence(
                id: "s1", domains: ["x.test"], startsAt: now.addingTimeInterval(-60),
                endsAt: now.addingTimeInterval(3_600),
                author: "ops", reason: "migration")
            try await a.add(silence)
            #expect(try await b.silences(at: now) == [silence])
            #expect(try await b.silences(at: now.addingTimeInterval(7_200)).isEmpty)
        }
    }

    @Test("members: each node's liveness row, with how long it has been silent by the database's clock")
    func members() async throws {
        try await withTwoNodes { server, location, a, b in
            let started = Date(timeIntervalSince1970: 1_795_000_000)
            try await a.beat(startedAt: started)
            try await b.beat(startedAt: started)
            _ = try server.psql(
                "UPDATE nodes SET seen_at = now() - interval '120 seconds' WHERE name = 'b'",
                database: location.database)
            let members = try await a.members()
            #expect(members.map(\.name) == ["a", "b"])
            #expect(members[0].silentFor < 60)
            #expect(members[1].silentFor >= 120)
            #expect(members[1].startedAt == started)
        }
    }

    @Test("a column changed behind the store's back is said as an unreadable answer, not as a connection failure")
    func unreadableAnswer() async throws {
        try await withTwoNodes { server, location, a, _ in
            try await a.beat(startedAt: Date())
            _ = try server.psql(
                "ALTER TABLE nodes ALTER COLUMN started_at TYPE text USING started_at::text",
                database: location.database)
            let error = await #expect(throws: PostgresStoreError.self) { try await a.members() }
            guard case .unreadable("reading the cluster's members", _) = try #require(error) else {
                Issue.record("expected an unreadable answer, got \(String(describing: error))")
                return
            }
        }
    }

    @Test("two nodes migrating one empty database at once create the schema once")
    func concurrentMigration() async throws {
        let (server, location) = try await PostgresServer.freshDatabase()
        async let one: Void = withStore(location, node: "a") { _ in }
        async let two: Void = withStore(location, node: "b") { _ in }
        _ = try await (one, two)
        #expect(
            try server.psql("SELECT version FROM schema_version", database: location.database)
                == "\(PostgresStore.schemaVersion)")
    }

    @Test("a schema newer than this binary is refused, naming both versions")
    func newerSchemaRefused() async throws {
        let (server, location) = try await PostgresServer.freshDatabase()
        try await withStore(location, node: "a") { _ in }
        _ = try server.psql("UPDATE schema_version SET version = 99", database: location.database)
        let error = await #expect(throws: PostgresStoreError.self) {
            try await withStore(location, node: "a") { _ in }
        }
        #expect(error == .schemaTooNew(found: 99, known: PostgresStore.schemaVersion))
        #expect(PostgresStore.schemaVersion == 2)
    }

    @Test("a wrong password is said as an authentication failure, and no message shows the password")
    func wrongPassword() async throws {
        let (_, location) = try await PostgresServer.freshDatabase()
        var wrong = location
        wrong.password = "not-the-password-\(UUID().uuidString)"
        let error = await #expect(throws: PostgresStoreError.self) {
            try await withStore(wrong, node: "a", callTimeout: 20) { _ in }
        }
        let said = try #require(error).description
        #expect(said.contains("28P01") || said.contains("authentication"))
        #expect(!said.contains(wrong.password!))
        #expect(!said.contains(location.password!))
        #expect(!wrong.description.contains(wrong.password!))
    }
}
