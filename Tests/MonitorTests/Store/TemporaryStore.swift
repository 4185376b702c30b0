import Foundation
import MonitorCore
import MonitorDaemon
import MonitorEvaluation
import MonitorStore

/// Where a test store lives: a fresh file in a temporary directory, or memory.
enum StoreKind: String, CaseIterable, Sendable {
    case onDisk = "on disk"
    case inMemory = "in memory"
}

/// Runs `body` with a new store and always removes its directory afterwards, also when `body` throws.
func withTemporaryStore<Result>(
    _ kind: StoreKind = .onDisk,
    _ body: (MonitorStore, _ directory: String) async throws -> Result
) async throws -> Result {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let store =
        switch kind {
        case .onDisk: try await MonitorStore.open(directory: directory)
        case .inMemory: try await MonitorStore.inMemory()
        }
    defer { try? store.close() }
    return try await body(store, directory)
}

/// A fresh directory under the system's temporary directory.
func makeTemporaryDirectory() throws -> String {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("aasa-store-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url.path
}
