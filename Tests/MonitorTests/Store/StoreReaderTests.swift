import Foundation
import GRDB
import MonitorCore
import MonitorDaemon
import MonitorStore
import TestSupport
import Testing

@Suite("Store reader")
struct StoreReaderTests {
    typealias R = StoreReports

    @Test("a read-only reader sees what an active writer commits")
    func readWhileWriting() async throws {
        try await withTemporaryStore { store, directory in
            try await store.record(report: R.report(at: 0, origin: "sha256:a", cdn: "sha256:a"))
            let reader = try StoreReader.openReadOnly(directory: directory)
            #expect(try await reader.domainStates().map(\.lastCheck) == [R.at(0)])
            try await store.record(report: R.report(at: 10, origin: "sha256:a", cdn: "sha256:a"))
            #expect(try await reader.domainStates().map(\.lastCheck) == [R.at(10)])
            #expect(try await reader.integrityCheck() == ["ok"])
        }
    }

    @Test("a closed database is whole in its main file, and a read-only reader works with the empty WAL left")
    func readAfterClose() async throws {
        try await withTemporaryStore { store, directory in
            try await store.record(report: R.report(at: 0, origin: "sha256:a", cdn: "sha256:a"))
            try store.close()
            let wal = try FileManager.default.attributesOfItem(atPath: store.path + "-wal")[.size] as? Int
            #expect(wal == 0)
            let reader = try StoreReader.openReadOnly(directory: directory)
            #expect(try await reader.domainStates().map(\.domain) == ["example.com"])
            #expect(try await reader.history(domain: "example.com").count == 2)
        }
    }

    @Test("the file is in WAL mode and passes SQLite's integrity check from another connection")
    func walMode() async throws {
        try await withTemporaryStore { store, _ in
            try await store.record(report: R.report(at: 0, origin: "sha256:a", cdn: "sha256:a"))
            let queue = try DatabaseQueue(path: store.path)
            defer { try? queue.close() }
            let (mode, integrity) = try await queue.read { db in
                (
                    try String.fetchOne(db, sql: "PRAGMA journal_mode"),
                    try String.fetchAll(db, sql: "PRAGMA integrity_check")
                )
            }
            #expect(mode == "wal")
            #expect(integrity == ["ok"])
        }
    }

    @Test("a missing database is a clear error naming the file")
    func missing() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let error = #expect(throws: StoreError.self) { try StoreReader.openReadOnly(directory: directory) }
        #expect(error?.reason == .missing)
        #expect(error?.description.contains("aasa-monitor.sqlite") == true)
        #expect(!FileManager.default.fileExists(atPath: directory + "/aasa-monitor.sqlite"), "read-only never creates")
    }

    @Test("a database from a newer version is refused, not misread")
    func newerSchema() async throws {
        try await withTemporaryStore { store, directory in
            let queue = try DatabaseQueue(path: store.path)
            try await queue.write { db in
                try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v999-from-the-future')")
            }
            try queue.close()
            let error = #expect(throws: StoreError.self) { try StoreReader.openReadOnly(directory: directory) }
            #expect(error?.reason == .newerSchema)
        }
    }

    @Test("a database without migrations is older than this version")
    func olderSchema() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let queue = try DatabaseQueue(path: directory + "/aasa-monitor.sqlite")
        try await queue.write { db in try db.execute(sql: "CREATE TABLE unrelated (x)") }
        try queue.close()
        let error = #expect(throws: StoreError.self) { try StoreReader.openReadOnly(directory: directory) }
        #expect(error?.reason == .olderSchema)
    }

    @Test("reopening a store keeps its data and migrates nothing twice")
    func reopen() async throws {
        try await withTemporaryStore { store, directory in
            try await store.record(report: R.report(at: 0, origin: "sha256:a", cdn: "sha256:a"))
            let again = try await MonitorStore.open(directory: directory)
            #expect(try await again.reader.domainStates().count == 1)
        }
    }
}
