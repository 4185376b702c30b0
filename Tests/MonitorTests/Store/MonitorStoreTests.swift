import AASA
import Foundation
import GRDB
import Monitor
import Testing

@Suite("Monitor store")
struct MonitorStoreTests {
    typealias R = StoreReports

    @Test("a recorded check reads back as state, history and check rows", arguments: StoreKind.allCases)
    func recordAndReadBack(kind: StoreKind) async throws {
        try await withTemporaryStore(kind) { store, _ in
            let finding = ReportFinding(
                code: .originRedirect, severity: .error, source: .wellKnown, message: "redirects",
                detail: ["location": "https://www.example.com/"])
            let result = try await store.record(
                report: R.report(at: 0, origin: "sha256:a", cdn: "sha256:a", findings: [finding]))
            #expect(result.state.verdict == .ready)
            #expect(result.events.map(\.kind) == [.verdictChanged, .originFirstSeen])

            let states = try await store.reader.domainStates()
            #expect(states == [result.state])
            let history = try await store.reader.history(domain: "example.com")
            #expect(history == result.events)
            let checks = try await store.reader.lastChecks(domain: "example.com")
            #expect(checks.map(\.originHash) == ["sha256:a"])
            #expect(checks.first?.checkedAt == R.at(0))
            #expect(try await store.reader.document(hash: "sha256:a")?.contains("applinks") == true)
            #expect(try await store.count([.findings]) == [1])
            #expect(try await store.reader.integrityCheck() == ["ok"])
        }
    }

    @Test("documents are stored once per hash across many checks", arguments: StoreKind.allCases)
    func documentsOnce(kind: StoreKind) async throws {
        try await withTemporaryStore(kind) { store, _ in
            for minute in 0..<20 {
                try await store.record(report: R.report(at: Double(minute), origin: "sha256:a", cdn: "sha256:b"))
            }
            let counts = try await store.count([.documents, .checks])
            #expect(counts == [2, 20])
        }
    }

    @Test("a propagation's delay is in the state and the timeline", arguments: StoreKind.allCases)
    func propagation(kind: StoreKind) async throws {
        try await withTemporaryStore(kind) { store, _ in
            try await store.record(report: R.report(at: 0, origin: "sha256:a", cdn: "sha256:a"))
            try await store.record(report: R.report(at: 10, origin: "sha256:b", cdn: "sha256:a"))
            let caughtUp = try await store.record(report: R.report(at: 25, origin: "sha256:b", cdn: "sha256:b"))
            #expect(caughtUp.state.lastPropagationDelay == 900.0)
            let history = try await store.reader.history(domain: "example.com")
            let propagated = try #require(history.first { $0.kind == .cdnPropagated })
            // JSON gives whole seconds back as an integer.
            #expect(propagated.detail["delay"] == .int(900))
            #expect(propagated.at == R.at(25))
        }
    }

    @Test("alert states and their deliveries are written with the check", arguments: StoreKind.allCases)
    func alertUpdate(kind: StoreKind) async throws {
        try await withTemporaryStore(kind) { store, _ in
            let identity = FindingIdentity(
                domain: "example.com", code: "origin.redirect", source: .wellKnown, subject: "")
            let firing = Data(#"{"state":"firing","since":1800000000}"#.utf8)
            let delivery = OutboxInsert(
                deliveryID: "d1", eventID: "e1", webhook: "ops", eventJSON: Data("{}".utf8), createdAt: R.at(0),
                nextAttemptAt: R.at(0))
            try await store.record(report: R.report(at: 0, origin: "sha256:a", cdn: "sha256:a")) { input in
                #expect(input.alertStates.isEmpty)
                return ([identity: firing], [delivery])
            }
            try await store.record(report: R.report(at: 10, origin: "sha256:a", cdn: "sha256:a")) { input in
                #expect(input.alertStates == [identity: firing])
                return (input.alertStates, [delivery])
            }
            let alerts = try await store.reader.alertStates(domain: "example.com")
            #expect(alerts == [StoredAlertState(identity: identity, stateJSON: firing)])
            #expect(try await store.outboxCounts() == OutboxCounts(pending: 1, retrying: 0, dead: 0))
        }
    }

    @Test("a failing alert update keeps nothing of the check", arguments: StoreKind.allCases)
    func alertUpdateFailureRollsBack(kind: StoreKind) async throws {
        struct Refused: Error {}
        try await withTemporaryStore(kind) { store, _ in
            await #expect(throws: Refused.self) {
                try await store.record(report: R.report(at: 0, origin: "sha256:a", cdn: "sha256:a")) { _ in
                    throw Refused()
                }
            }
            let counts = try await store.count([.checks, .documents, .domainState, .timeline])
            #expect(counts == [0, 0, 0, 0])
        }
    }

    @Test("the heartbeat keeps its start while the same process beats")
    func heartbeat() async throws {
        try await withTemporaryStore(.inMemory) { store, _ in
            try await store.beat(pid: 42, at: R.at(0), version: "1.0", host: "h")
            try await store.beat(pid: 42, at: R.at(1), version: "1.0", host: "h")
            #expect(
                try await store.reader.heartbeat()
                    == Heartbeat(pid: 42, host: "h", startedAt: R.at(0), beatAt: R.at(1), version: "1.0"))
            try await store.beat(pid: 43, at: R.at(2), version: "1.1", host: "h")
            #expect(try await store.reader.heartbeat()?.startedAt == R.at(2))
        }
    }

    @Test("retention keeps the current state and removes old rows", arguments: StoreKind.allCases)
    func prune(kind: StoreKind) async throws {
        try await withTemporaryStore(kind) { store, _ in
            let stale = ReportFinding(code: .cdnStale, severity: .warning, source: .cdn, message: "stale")
            try await store.record(report: R.report(at: 0, origin: "sha256:old", cdn: "sha256:old"))
            try await store.record(
                report: R.report(at: 10, origin: "sha256:new", cdn: "sha256:old", findings: [stale]))
            #expect(try await store.count([.findings]) == [1])
            try await store.record(report: R.report(domain: "quiet.example", at: 0, origin: "sha256:q", cdn: nil))
            let before = try await store.reader.domainStates()
            let result = try await store.prune(olderThan: R.at(60))
            #expect(result.checks == 3)
            #expect(try await store.reader.domainStates() == before)
            #expect(try await store.count([.checks, .findings, .timeline]) == [0, 0, 0])
            // Both current states still point at their documents; the superseded meaning is gone.
            #expect(try await store.reader.document(hash: "sha256:new") != nil)
            #expect(try await store.reader.document(hash: "sha256:q") != nil)
            #expect(try await store.reader.document(hash: "sha256:old") != nil, "Apple still serves it")
            try await store.record(report: R.report(at: 70, origin: "sha256:new", cdn: "sha256:new"))
            try await store.prune(olderThan: R.at(65))
            #expect(try await store.reader.document(hash: "sha256:old") == nil)
            #expect(try await store.reader.integrityCheck() == ["ok"])
        }
    }
}

extension MonitorStore {
    /// Row counts of `tables`, in order.
    func count(_ tables: [StoreTable]) async throws -> [Int] {
        var counts: [Int] = []
        for table in tables { counts.append(try await reader.rowCount(table: table)) }
        return counts
    }
}
