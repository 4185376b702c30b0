import Foundation
import MonitorCore
import MonitorEvaluation
import Testing

/// A cluster's core (`ClusterMode`): checks start by claims the database grants, and commit under their lease.
@Suite("daemon core in a cluster")
struct DaemonCoreClusterTests {
    typealias H = CoreHarness

    /// A cluster's harness, listening, the first delivery pass answered (the outbox is not polled here).
    static func running(_ domains: [String] = ["a.test", "b.test"], concurrency: Int = 4) throws -> H {
        var h = H(
            try H.configuration(domains, concurrency: concurrency),
            tunables: DaemonCore.Tunables(silenceRefresh: 3_600, outboxPoll: 3_600, jitter: 0, startupWindow: 0),
            cluster: ClusterMode(leaseDuration: 70))
        h.send(.listening(now: H.t(0)))
        h.send(.delivered(attempted: 0, unrecorded: 0, stopped: false, nextAttempt: nil, now: H.t(0)))
        return h
    }

    @Test("claims as many domains as slots are free, starts each with the database's entry, asks again when told")
    func claimsAndStarts() throws {
        var h = try Self.running()
        #expect(h.send(.silencesRead([], now: H.t(0.1))) == [.claim(4)])
        // Another daemon's check left b.test's entry: the job starts from it, not from anything of this daemon's.
        let entry = BookEntry(state: nil, alerts: [:], run: RunMark(id: 7, key: "other"))
        #expect(
            h.grant([("a.test", 3, nil), ("b.test", 5, entry)], nextDue: 4, at: 0.2) == [
                .start(["a.test", "b.test"]), .sleep(4),
            ])
        #expect(h.jobs["b.test"]?.entry == entry)
        #expect(h.jobs["b.test"]?.lease == Lease(domain: "b.test", epoch: 5))
        // Two slots free, but nothing else is due before 4 s.
        #expect(h.tick(3.9) == [])
        #expect(h.tick(4) == [.claim(2), .sleep(14)])
    }

    @Test("a leased check commits with its fence and its next due time; the book takes the result")
    func commitsUnderItsLease() throws {
        var h = try Self.running()
        h.send(.silencesRead([], now: H.t(0.1)))
        h.grant([("a.test", 3, nil)], nextDue: 50, at: 0.2)
        #expect(h.report("a.test", .healthy, at: 1) == [.append([.check(1, "a.test")])])
        let fence = try #require(h.item(1)?.append.fence)
        #expect(fence == Fence(lease: Lease(domain: "a.test", epoch: 3), nextCheckIn: 60))
        #expect(h.commit(1, at: 1.1) == [.log("committed a.test")])
        #expect(h.core.entry(of: "a.test")?.state?.verdict == .ready)
        // No plan of its own: the database says when a.test is due.
        #expect(h.core.nextDue(of: "a.test") == nil)
    }

    @Test("a fenced check is dropped whole: no book entry, no delivery pass, counted")
    func fencedCheck() throws {
        var h = try Self.running(["a.test"])
        h.send(.silencesRead([], now: H.t(0.1)))
        h.grant([("a.test", 3, nil)], at: 0.2)
        // The origin refuses connections: the alert fires with this check (failure threshold 1)...
        #expect(h.report("a.test", .originConnect, at: 1) == [.append([.check(1, "a.test")])])
        #expect(h.item(1)?.append.check?.outcome.fires(on: .wellKnown) == true)
        // ...but another daemon claimed a.test meanwhile: nothing is kept, no delivery pass is woken.
        #expect(h.send(.fenced(1, now: H.t(1.1))) == [.log("fenced a.test")])
        #expect(h.core.entry(of: "a.test") == nil)
        #expect(h.core.fencedChecks == 1)
        #expect(h.core.checksCompleted == 0)

        // The same check committed wakes the delivery pass: it is the fence that kept it silent.
        var committed = try Self.running(["a.test"])
        committed.send(.silencesRead([], now: H.t(0.1)))
        committed.grant([("a.test", 3, nil)], at: 0.2)
        committed.report("a.test", .originConnect, at: 1)
        #expect(committed.commit(1, at: 1.1) == [.log("committed a.test"), .wake])
    }

    @Test("a grant it cannot use goes back at once: a domain not configured, one in flight, or during a shutdown")
    func releasesUnused() throws {
        var h = try Self.running()
        h.send(.silencesRead([], now: H.t(0.1)))
        #expect(
            h.grant([("a.test", 1, nil), ("gone.test", 9, nil)], nextDue: 30, at: 0.2) == [
                .release(["gone.test"]), .start(["a.test"]),
            ])
        #expect(h.tick(10.2) == [.claim(3), .sleep(20.2)])
        #expect(h.send(.shutdown(now: H.t(10.3))) == [.log("stopping 1")])
        #expect(h.grant([("a.test", 2, nil), ("b.test", 4, nil)], at: 10.4) == [.release(["a.test", "b.test"])])
        h.report("a.test", .healthy, at: 11)
        #expect(h.commit(1, at: 11.1) == [.log("committed a.test"), .finish])
    }

    @Test("a failed claim is tried again after 10 s; a full grant claims again as soon as a slot frees")
    func retriesAndRefills() throws {
        var h = try Self.running(["a.test", "b.test", "c.test"], concurrency: 2)
        h.send(.silencesRead([], now: H.t(0.1)))
        // The timer already set for 10.1 s (the longest sleep) comes before the retry.
        #expect(h.send(.claimFailed(reason: "connection refused", now: H.t(0.2))) == [.log("claim failed")])
        #expect(h.tick(10.1) == [.sleep(10.2)])
        #expect(h.tick(5) == [])
        #expect(h.tick(10.2) == [.claim(2), .sleep(20.2)])
        #expect(
            h.grant([("a.test", 1, nil), ("b.test", 1, nil)], nextDue: 40, at: 10.3) == [.start(["a.test", "b.test"])])
        h.report("a.test", .healthy, at: 11)
        // a.test's slot frees with its commit: the full grant said more may be due, so the claim goes now.
        #expect(h.commit(1, at: 11.1) == [.log("committed a.test"), .claim(1)])
    }
}
