import Foundation
import MonitorCore
import MonitorEvaluation
import MonitorPostgres
import MonitorStore
import TestSupport
import Testing

/// The journal's promises (`Journal`) hold the same on both stores: the same appends give the same answers and
/// the same reads, on SQLite and on a real PostgreSQL 15.
@Suite("the journal on SQLite and on PostgreSQL")
struct JournalContractTests {
    typealias F = JournalFixtures

    /// What a store answered to the same appends, in comparable form.
    struct Answers: Equatable {
        var runs: [Int64?]
        var book: [String: BookEntry]
        var conditions: [MonitorConditions.Condition]
        var document: String?
        var missingDocument: String?
    }

    /// A check, a repeat (same run), a breakage with its post, a condition change; then the reads.
    static func play(_ journal: any Journal) async throws -> Answers {
        let first = F.check("example.com", at: 0)
        var runs: [Int64?] = []
        func run(_ result: JournalResult) -> Int64? {
            if case .committed(let mark) = result { return mark?.id }
            return -1
        }
        let firstResult = try await journal.append([first])
        runs.append(run(firstResult[0]))
        let entry = try #require(try await journal.book(domains: ["example.com"])["example.com"])
        let repeated = F.check("example.com", at: 1, entry: entry)
        let broken = F.check("other.test", at: 1, broken: true)
        let condition = MonitorConditions.Condition(
            code: .monitorNetwork, since: StoreReports.at(1), message: "DNS fails for every domain")
        let conditions = JournalAppend(conditions: [condition], at: StoreReports.at(1))
        runs += try await journal.append([repeated, broken, conditions]).map(run)
        let hash = try #require(first.check?.outcome.documents.keys.first)
        return Answers(
            runs: runs, book: try await journal.book(domains: ["example.com", "other.test", "never.test"]),
            conditions: try await journal.activeConditions(), document: try await journal.document(hash: hash),
            missingDocument: try await journal.document(hash: "sha256:none"))
    }

    @Test("the same appends give the same runs, book, conditions and documents")
    func sameAnswers() async throws {
        let sqlite = try await Self.play(try await MonitorStore.inMemory())
        let (_, location) = try await PostgresServer.freshDatabase()
        let postgres = try await withStore(location, node: "a") { store in
            try await Self.play(PostgresJournal(store: store))
        }
        #expect(sqlite.runs == [1, 1, 2, nil])
        #expect(postgres == sqlite)
        #expect(sqlite.book["example.com"]?.state?.verdict == .ready)
        #expect(sqlite.book["other.test"]?.alerts.count == 1)
        #expect(sqlite.document != nil)
    }
}
