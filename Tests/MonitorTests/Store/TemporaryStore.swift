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

/// Hand-built reports for store tests.
enum StoreReports {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    static func at(_ minutes: Double) -> Date { start.addingTimeInterval(minutes * 60) }

    /// A JSON column as every version before compression wrote it: `StoreCoding`'s encoder settings, plain.
    static func plainJSON(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(value)
    }

    static func report(
        domain: String = "example.com",
        at minutes: Double,
        origin: String?,
        cdn: String?,
        verdict: Verdict = .ready,
        findings: [ReportFinding] = []
    ) -> DomainReport {
        var documents: [String: String] = [:]
        for hash in [origin, cdn].compactMap(\.self) {
            documents[hash] = "{\"applinks\":{\"details\":[],\"v\":\"\(hash)\"}}"
        }
        return DomainReport(
            domain: domain,
            checkedAt: at(minutes),
            durationSeconds: 0.25,
            verdict: verdict,
            findings: findings,
            origin: OriginFacts(
                wellKnown: LocationFacts(
                    url: "https://\(domain)/.well-known/apple-app-site-association", status: origin == nil ? 404 : 200,
                    canonicalHash: origin),
                plainStatus: 200, root: nil),
            cdn: CDNFacts(
                url: "https://app-site-association.cdn-apple.com/a/v1/\(domain)", status: cdn == nil ? 404 : 200,
                canonicalHash: cdn),
            diff: nil,
            documents: documents)
    }
}
