import Foundation
import MonitorDaemon
import MonitorStore
import TestSupport
import Testing

/// The store's own recovery: shedding history on a full disk, checkpoints, a deleted file written back.
@Suite("Store resilience")
struct StoreResilienceTests {
    /// Ten runs (the origin changes every check) and one pending delivery.
    static func fill(_ store: MonitorStore) async throws {
        for minute in 0..<10 {
            let hash = "sha256:\(minute)"
            try await store.record(report: StoreReports.report(at: Double(minute), origin: hash, cdn: hash))
        }
        let event = Data(#"{"type":"alert.firing"}"#.utf8)
        try await store.enqueue([
            OutboxInsert(
                deliveryID: "d1", eventID: "e1", webhook: "hook", eventJSON: event, createdAt: StoreReports.start,
                nextAttemptAt: StoreReports.start)
        ])
    }

    @Test("shedding drops the older half of the history and keeps the current run and pending deliveries")
    func shedHistory() async throws {
        try await withTemporaryStore { store, _ in
            try await Self.fill(store)
            let before = try await store.reader.runs(domain: "example.com", limit: 100)
            #expect(before.count == 10)
            #expect(try await store.shedHistory() >= 5)
            let after = try await store.reader.runs(domain: "example.com", limit: 100)
            #expect(after.count == 5)
            #expect(after.first?.firstSeen == before.first?.firstSeen, "the newest run (current) is kept")
            #expect(try await store.allDeliveries().map(\.deliveryID) == ["d1"])
            #expect(try await store.checkpoint())
        }
    }

    @Test("a deleted database file is noticed and written back with everything the open copy held")
    func deletedFileRestored() async throws {
        try await withTemporaryStore { store, directory in
            try await Self.fill(store)
            #expect(store.fileChange() == nil)
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: store.path + suffix) }
            #expect(store.fileChange() == .deleted)
            try await store.restoreDeletedFile()
            let reader = try StoreReader.openReadOnly(directory: directory)
            #expect(try await reader.runs(domain: "example.com", limit: 100).count == 10)
            #expect(store.fileChange() == .replaced, "the path now holds the re-created file")
        }
    }
}
