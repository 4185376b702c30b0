import AASA
import Foundation
import GRDB
import MonitorCore
import Testing

@testable import Monitor

/// The state memo spares decoding what a domain's last check wrote, and never hides a state changed under it.
@Suite("State memo")
struct StateMemoTests {
    typealias R = StoreReports

    /// A state with every field set, so that a field the coding dropped would show.
    static let fullState: DomainState = {
        var state = DomainState(
            domain: "example.com", verdict: .cdnStale, verdictSince: R.at(1), lastCheck: R.at(2), lastDuration: 0.37,
            originHash: "sha256:b", originHashSince: R.at(1), cdnHash: "sha256:a", lastCDNCheck: R.at(2),
            cdnInSync: false, staleSince: R.at(1), expectedRefresh: R.at(60), certificateNotAfter: R.at(90_000),
            lastPropagationDelay: 4_321.5,
            openFindings: [
                OpenFinding(
                    key: .init(code: "cdn.stale", source: .cdn, subject: ""), severity: .warning,
                    message: "Apple's copy is older", since: R.at(1))
            ],
            pendingPropagation: PendingPropagation(originHash: "sha256:b", changedAt: R.at(1)))
        state.incident = OpenIncident(id: "01JABCDEFGHJKMNPQRSTVWXYZ0", since: R.at(1.5))
        return state
    }()

    @Test("a stored state decodes to the value it was encoded from, every field included")
    func roundTrip() throws {
        let stored = try StoreCoding.encode(Self.fullState)
        #expect(try StoreCoding.decode(DomainState.self, from: stored) == Self.fullState)
    }

    @Test("it answers only for the bytes it remembers, and starts over past its size")
    func answersForItsBytes() throws {
        let memo = StateMemo(maximumDomains: 2)
        let stored = try StoreCoding.encode(Self.fullState)
        memo.remember(Self.fullState, stored: stored)
        #expect(memo.state(of: "example.com", stored: stored) == Self.fullState)
        var changed = stored
        changed[changed.count - 1] ^= 0xFF
        #expect(memo.state(of: "example.com", stored: changed) == nil)
        #expect(memo.state(of: "other.test", stored: stored) == nil)

        var second = Self.fullState
        second.domain = "b.test"
        memo.remember(second, stored: stored)
        var third = Self.fullState
        third.domain = "c.test"
        memo.remember(third, stored: stored)
        #expect(memo.state(of: "example.com", stored: stored) == nil)
        #expect(memo.state(of: "c.test", stored: stored) == third)
    }

    @Test("a state changed in the database after the last check is read, not the remembered one")
    func changedUnderneath() async throws {
        try await withTemporaryStore(.onDisk) { store, _ in
            try await store.record(report: R.report(at: 0, origin: "sha256:a", cdn: "sha256:a"))
            // Someone (a restore from a backup, here SQL) puts another state in place: verdict ready since day 10.
            var replaced = try #require(try await store.reader.domainStates().first)
            replaced.verdictSince = R.at(-14_400)
            let other = try DatabaseQueue(path: store.path)
            let stored = try StoreCoding.encode(replaced)
            try await other.write { db in
                try db.execute(sql: "UPDATE domain_state SET state_json = ?", arguments: [stored])
            }
            try other.close()
            let outcome = try await store.record(report: R.report(at: 1, origin: "sha256:a", cdn: "sha256:a"))
            #expect(outcome.state.verdictSince == R.at(-14_400))
            // And what that check wrote is what the next one starts from.
            let next = try await store.record(report: R.report(at: 2, origin: "sha256:a", cdn: "sha256:a"))
            #expect(next.state.verdictSince == R.at(-14_400))
            #expect(next.state.lastCheck == R.at(2))
        }
    }
}
