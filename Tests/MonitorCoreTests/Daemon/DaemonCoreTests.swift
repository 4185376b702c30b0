import AASA
import Foundation
import MonitorCore
import MonitorEvaluation
import Testing

/// The daemon's coordination as tables: each event at a time set by hand, and the actions the core answers.
@Suite("daemon core")
struct DaemonCoreTests {
    typealias H = CoreHarness

    @Test("starts nothing before it listens, then every due check once the silences were read")
    func startsAfterListening() throws {
        var h = H(try H.configuration())
        #expect(h.tick(0) == [.sleep(10)])
        #expect(h.send(.listening(now: H.t(0))) == [.ready, .readSilences, .wake])
        #expect(h.send(.silencesRead([], now: H.t(0.1))) == [.start(["a.test", "b.test"])])
        #expect(h.core.phase == .running)
    }

    @Test("a committed check enters the book and schedules the next one an interval later")
    func committedCheck() throws {
        var h = H(try H.configuration())
        h.begin()
        #expect(h.report("a.test", .healthy, at: 1) == [.append([.check(1, "a.test")])])
        #expect(h.commit(1, at: 1.1) == [.log("committed a.test")])
        let outcome = try #require(h.item(1)?.append.check?.outcome)
        #expect(h.core.entry(of: "a.test") == BookEntry(committed: outcome, run: RunMark(id: 1, key: "run1")))
        #expect(h.core.nextDue(of: "a.test") == H.t(61.1))
        #expect(h.core.checksCompleted == 1)
        #expect(h.core.checkedDomains { domain, _, _ in domain } == ["a.test"])
    }

    @Test("checks finishing during a commit share the next batch")
    func sharedBatch() throws {
        var h = H(try H.configuration(["a.test", "b.test", "c.test"]))
        h.begin()
        #expect(h.report("a.test", .healthy, at: 1) == [.append([.check(1, "a.test")])])
        #expect(h.report("b.test", .healthy, at: 1.1) == [])
        #expect(h.report("c.test", .healthy, at: 1.2) == [])
        #expect(
            h.commit(1, at: 1.3) == [.log("committed a.test"), .append([.check(2, "b.test"), .check(3, "c.test")])])
    }

    @Test("a failed append loses nothing: the conditions are retried with the same event ids, a check is not")
    func failedAppend() throws {
        var h = H(try H.configuration())
        h.begin()
        let firing = Digest.Item.conditions(
            1, active: ["monitor.resources"], events: ["monitor.firing monitor.resources"])
        #expect(
            h.end("a.test", .resourceShortage(reason: "EMFILE"), at: 1) == [
                .log("discarded a.test"), .append([firing]),
            ])
        let firstID = try #require(h.item(1).map { Digest.events($0.append) }?.first?.id)
        #expect(h.fail(1, at: 1.1) == [.log("conditions not journaled [\"monitor.resources\"]")])
        #expect(h.tick(5) == [])
        #expect(h.tick(10) == [.sleep(11.1)])
        #expect(
            h.tick(11.1) == [
                .append([.conditions(2, active: ["monitor.resources"], events: ["monitor.firing monitor.resources"])]),
                .sleep(21.1),
            ])
        #expect(h.item(2).map { Digest.events($0.append) }?.first?.id == firstID)
        // b's clean check resolves the condition; its own item fails and it is not retried.
        #expect(h.report("b.test", .healthy, at: 12) == [])
        #expect(
            h.commit(2, at: 12.5) == [
                .log("conditions [\"monitor.firing monitor.resources\"]"),
                .append([
                    .conditions(3, active: [], events: ["monitor.resolved monitor.resources"]), .check(4, "b.test"),
                ]),
            ])
        #expect(h.commit(3, at: 13) == [.log("conditions [\"monitor.resolved monitor.resources\"]")])
        #expect(h.fail(4, at: 13) == [.log("not recorded b.test")])
        #expect(h.core.entry(of: "b.test") == nil)
        #expect(h.core.nextDue(of: "b.test") == H.t(73))
        #expect(h.core.checksFailed == 2)
    }

    @Test("condition sets commit in the order they changed: the resolution after the firing (H1)")
    func conditionOrder() throws {
        var h = H(try H.configuration())
        h.begin()
        h.end("a.test", .resourceShortage(reason: "EMFILE"), at: 1)
        #expect(
            h.batches.last.map { $0.items.map(Digest.item) } == [
                .conditions(1, active: ["monitor.resources"], events: ["monitor.firing monitor.resources"])
            ])
        // b's clean check clears monitor.resources while seq 1 is in flight: nothing leaves yet.
        #expect(h.report("b.test", .healthy, at: 2) == [])
        #expect(h.core.activeConditions.isEmpty)
        #expect(
            h.commit(1, at: 2.1) == [
                .log("conditions [\"monitor.firing monitor.resources\"]"),
                .append([
                    .conditions(2, active: [], events: ["monitor.resolved monitor.resources"]), .check(3, "b.test"),
                ]),
            ])
        let firing = try #require(h.item(1).map { Digest.events($0.append) }?.first)
        let resolved = try #require(h.item(2).map { Digest.events($0.append) }?.first)
        #expect(firing.id < resolved.id)
    }

    @Test("held sources are read when the report is accepted, not when its check started (H3)")
    func heldWhenAccepted() throws {
        var h = H(try H.configuration())
        h.begin()
        #expect(h.jobs["b.test"]?.ledger.heldSources == [])
        let b = H.reported(h.jobs["b.test"]!, .originConnect, at: 1)
        guard case .reported(let executorMade) = b else { throw Failure() }
        #expect(executorMade.outcome.fires(on: .wellKnown), "reduced under the held set at start, b fires")
        #expect(
            h.report("a.test", .hostDown, at: 1) == [
                .append([
                    .conditions(1, active: ["monitor.network"], events: ["monitor.firing monitor.network"]),
                    .check(2, "a.test"),
                ])
            ])
        #expect(h.send(.checked(h.jobs["b.test"]!.id, b, now: H.t(1.1))) == [])
        h.commit(1, at: 1.2)
        #expect(h.commit(2, at: 1.2) == [.log("committed a.test"), .append([.check(3, "b.test")])])
        let appendedB = try #require(h.item(3)?.append.check?.outcome)
        let appendedA = try #require(h.item(2)?.append.check?.outcome)
        #expect(!appendedB.fires(on: .wellKnown))
        #expect(!appendedA.fires(on: .wellKnown))
    }

    @Test("a reload during a check: the removed domain's check is still written but leaves the book and the plan")
    func reloadDuringCheck() throws {
        var h = H(try H.configuration())
        h.begin()
        #expect(
            h.send(.reload(try H.configuration(["b.test", "c.test"]), stored: [:], now: H.t(1))) == [
                .reloaded, .start(["c.test"]),
            ])
        #expect(h.report("a.test", .originConnect, at: 2) == [.append([.check(1, "a.test")])])
        #expect(h.item(1)?.append.hasDeliveries == true)
        #expect(h.commit(1, at: 2.1) == [.log("committed a.test")])
        #expect(h.core.entry(of: "a.test") == nil)
        #expect(h.core.nextDue(of: "a.test") == nil)
        h.end("b.test", .failed(reason: "read"), at: 3)
        h.end("c.test", .failed(reason: "read"), at: 3)
        let later = (4...200).flatMap { h.tick(Double($0)) }
        #expect(later.contains(.start(["b.test", "c.test"])))
        #expect(!later.contains { if case .start(let names) = $0 { names.contains("a.test") } else { false } })
    }

    @Test("a domain added back after its removed check committed continues from that commit, not an older read (H6)")
    func addedBackAfterRemovedCommit() throws {
        var h = H(try H.configuration())
        h.begin()
        h.send(.reload(try H.configuration(["b.test"]), stored: [:], now: H.t(1)))
        h.report("a.test", .originConnect, at: 2)
        h.commit(1, at: 2.1)
        let outcome = try #require(h.item(1)?.append.check?.outcome)
        let older = BookEntry()
        h.send(.reload(try H.configuration(), stored: ["a.test": older], now: H.t(3)))
        #expect(h.core.entry(of: "a.test") == BookEntry(committed: outcome, run: RunMark(id: 1, key: "run1")))
    }

    @Test("a domain removed and added back while its check runs is not checked twice at once")
    func reAddedWhileInFlight() throws {
        var h = H(try H.configuration())
        h.begin()
        h.send(.reload(try H.configuration(["b.test"]), stored: [:], now: H.t(61)))
        h.send(.reload(try H.configuration(), stored: [:], now: H.t(61)))
        let meanwhile = (61...91).flatMap { h.tick(Double($0)) }
        #expect(!meanwhile.contains { if case .start(let names) = $0 { names.contains("a.test") } else { false } })
        #expect(h.core.runningCount == 2)
        h.end("a.test", .failed(reason: "read"), at: 92)
        let after = (92...212).flatMap { h.tick(Double($0)) }
        #expect(after.filter { if case .start(let names) = $0 { names.contains("a.test") } else { false } }.count == 1)
    }

    @Test("a domain added back by a reload continues from its stored entry: its state and run, on its schedule")
    func addedBackContinuesFromStore() throws {
        let state = DomainState(
            domain: "a.test", verdict: .originBroken, verdictSince: H.t0, lastCheck: H.t(-10), lastDuration: 0.2)
        let stored = BookEntry(state: state, run: RunMark(id: 7, key: "k"))
        var h = H(try H.configuration(["b.test"]))
        h.begin()
        h.send(.reload(try H.configuration(), stored: ["a.test": stored], now: H.t0))
        let early = (0...40).flatMap { h.tick(Double($0)) }
        #expect(!early.contains { if case .start(let names) = $0 { names.contains("a.test") } else { false } })
        #expect(h.tick(50).contains(.start(["a.test"])))
        #expect(h.jobs["a.test"]?.entry == stored)
        // An entry the book already holds is not replaced by a stored one.
        h.send(.reload(try H.configuration(), stored: ["a.test": BookEntry()], now: H.t(61)))
        h.end("a.test", .failed(reason: "read"), at: 62)
        #expect(h.tick(122).contains(.start(["a.test"])))
        #expect(h.jobs["a.test"]?.entry == stored)
    }

    @Test("a store fault during a check rides the check's batch; its firing and resolution go together once it clears")
    func faultDuringCheck() throws {
        var h = H(try H.configuration())
        h.begin()
        #expect(h.send(.fault(.store, message: "disk full", now: H.t(1))) == [])
        #expect(
            h.report("a.test", .healthy, at: 2) == [
                .append([
                    .conditions(1, active: ["monitor.store"], events: ["monitor.firing monitor.store"]),
                    .check(2, "a.test"),
                ])
            ])
        let firingID = try #require(h.item(1).map { Digest.events($0.append) }?.first?.id)
        h.fail(1, at: 2.1)
        #expect(h.fail(2, at: 2.1) == [.log("not recorded a.test")])
        #expect(h.tick(15).filter { if case .append = $0 { true } else { false } }.isEmpty)
        #expect(
            h.send(.delivered(attempted: 0, unrecorded: 0, stopped: false, nextAttempt: nil, now: H.t(19))) == [
                .sleep(21)
            ])
        #expect(
            h.send(.faultCleared(.store, now: H.t(20))) == [
                .append([
                    .conditions(
                        3, active: [], events: ["monitor.firing monitor.store", "monitor.resolved monitor.store"])
                ])
            ])
        #expect(h.item(3).map { Digest.events($0.append) }?.first?.id == firingID)
        #expect(
            h.commit(3, at: 20.1) == [
                .log("conditions [\"monitor.firing monitor.store\", \"monitor.resolved monitor.store\"]"), .wake,
            ])
    }

    @Test("a check that overlapped a shortage already over is discarded without firing again")
    func shortageOver() throws {
        var h = H(try H.configuration())
        h.begin()
        h.end("b.test", .resourceShortage(reason: "EMFILE"), at: 2)
        #expect(h.core.activeConditions[.monitorResources] != nil)
        #expect(
            h.report("a.test", .originConnect, at: 3, failedFetch: true, lastShortage: H.t(2)) == [
                .log("discarded a.test (over)")
            ])
        #expect(h.core.nextDue(of: "a.test") == H.t(63))
        #expect(h.core.checksFailed == 2)
        #expect(h.batches.count == 1)
    }

    @Test("shutdown starts nothing new, writes what is in flight, delivers once more, then finishes")
    func shutdownWithWork() throws {
        var h = H(try H.configuration(["a.test", "b.test", "c.test"], concurrency: 2))
        #expect(h.begin().contains(.start(["a.test", "b.test"])))
        #expect(h.report("a.test", .healthy, at: 1) == [.append([.check(1, "a.test")])])
        #expect(h.send(.shutdown(now: H.t(2))) == [.log("stopping 2")])
        #expect(h.tick(100) == [.sleep(110)])
        #expect(h.commit(1, at: 100.1) == [.log("committed a.test")])
        h.send(.delivered(attempted: 0, unrecorded: 0, stopped: false, nextAttempt: nil, now: H.t(100.2)))
        #expect(h.report("b.test", .originConnect, at: 101) == [.append([.check(2, "b.test")])])
        #expect(h.commit(2, at: 101.1) == [.log("committed b.test"), .wake])
        #expect(h.core.phase == .stopping)
        #expect(
            h.send(.delivered(attempted: 1, unrecorded: 0, stopped: false, nextAttempt: nil, now: H.t(101.2)))
                == [.finish])
        #expect(h.core.phase == .finished)
        #expect(h.tick(102) == [])
    }

    @Test("the delivery loop's timing: one pass at a time, the poll, pauses doubling, one configuration per pass")
    func deliveryTiming() throws {
        var h = H(try H.configuration())
        #expect(h.begin() == [.ready, .readSilences, .wake, .sleep(10), .start(["a.test", "b.test"])])
        h.report("a.test", .originConnect, at: 1)
        #expect(h.commit(1, at: 1.1) == [.log("committed a.test")], "a pass is outstanding")
        #expect(
            h.send(.delivered(attempted: 1, unrecorded: 0, stopped: false, nextAttempt: nil, now: H.t(2))) == [.wake])
        #expect(
            h.send(.delivered(attempted: 0, unrecorded: 0, stopped: false, nextAttempt: H.t(30), now: H.t(3)))
                == [.sleep(5)])
        #expect(h.tick(5) == [.wake, .sleep(15)])
        #expect(h.send(.outboxUnreadable(reason: "locked", now: H.t(6))) == [.sleep(7)])
        #expect(h.tick(7) == [.wake, .sleep(17)])
        #expect(h.send(.outboxUnreadable(reason: "locked", now: H.t(8))) == [.sleep(10)])
        #expect(h.tick(10) == [.wake, .sleep(20)])
        #expect(h.send(.outboxUnreadable(reason: "locked", now: H.t(11))) == [.sleep(15)])
        // Something queued during a pause waits for its end.
        h.report("b.test", .originConnect, at: 12)
        #expect(h.commit(2, at: 12.1) == [.log("committed b.test")])
        #expect(h.tick(15) == [.wake, .sleep(25)])
        h.send(.delivered(attempted: 0, unrecorded: 0, stopped: false, nextAttempt: nil, now: H.t(16)))
        let reloaded = try H.configuration(webhook: "pager", extra: "  give_up_after: 2h")
        #expect(h.send(.reload(reloaded, stored: [:], now: H.t(16.5))) == [.reloaded, .wake])
        guard case .wakeDelivery(let webhooks, let policy) = h.last.last else { throw Failure() }
        #expect(webhooks.map(\.name) == ["pager"])
        #expect(policy.giveUpAfter == 7_200)
    }

    @Test("a check ending while every slot is taken starts the next due one")
    func slotFreedStartsNext() throws {
        var h = H(try H.configuration(concurrency: 1))
        #expect(h.begin().contains(.start(["a.test"])))
        #expect(!h.tick(30).contains { if case .start = $0 { true } else { false } })
        #expect(h.end("a.test", .failed(reason: "read"), at: 31) == [.log("not recorded a.test"), .start(["b.test"])])
    }

    /// a.test is due at once, b.test in 30 s (checked 30 s ago); the core looks by itself at most every 100 s.
    func wakeHarness(concurrency: Int, bInterval: String? = nil, bChecked: Double = -30) throws -> H {
        func state(_ domain: String, _ seconds: Double) -> DomainState {
            DomainState(
                domain: domain, verdict: .ready, verdictSince: H.t(seconds), lastCheck: H.t(seconds), lastDuration: 0.1)
        }
        let b = bInterval.map { "name: b.test\n    interval: \($0)" } ?? "b.test"
        let configuration = try H.configuration(["a.test", b], concurrency: concurrency)
        return H(
            configuration,
            book: [
                "a.test": BookEntry(state: state("a.test", -60)), "b.test": BookEntry(state: state("b.test", bChecked)),
            ],
            tunables: DaemonCore.Tunables(longestSleep: 100, silenceRefresh: 3_600, jitter: 0, startupWindow: 0))
    }

    @Test("a check whose next one is an interval away asks for no earlier wake-up")
    func quietFinish() throws {
        var h = try wakeHarness(concurrency: 4)
        #expect(h.begin(at: 3) == [.ready, .readSilences, .wake, .sleep(103), .start(["a.test"]), .sleep(30)])
        #expect(h.end("a.test", .failed(reason: "read"), at: 4) == [.log("not recorded a.test")])
    }

    @Test("a check ending while every slot is taken asks for a wake-up at the next due check")
    func slotFreed() throws {
        var h = try wakeHarness(concurrency: 1)
        #expect(h.begin(at: 3) == [.ready, .readSilences, .wake, .sleep(103), .start(["a.test"])])
        #expect(h.end("a.test", .failed(reason: "read"), at: 4) == [.log("not recorded a.test"), .sleep(30)])
    }

    @Test("a check whose next one comes before the core would look asks for that earlier wake-up")
    func earlierDeadline() throws {
        var h = try wakeHarness(concurrency: 4, bInterval: "10m", bChecked: -530)
        #expect(h.begin(at: 3) == [.ready, .readSilences, .wake, .sleep(103), .start(["a.test"]), .sleep(70)])
        #expect(h.end("a.test", .failed(reason: "read"), at: 4) == [.log("not recorded a.test"), .sleep(64)])
    }

    @Test("checks due within the batch slack start together at the planned wake-up, not one by one at other events")
    func startsInBursts() throws {
        // Interval 60 s: the slack is 0.6 s. b.test is due at 10.3 s and c.test at 10.5 s; d.test at 20 s.
        func entry(_ domain: String, checked seconds: Double) -> BookEntry {
            BookEntry(
                state: DomainState(
                    domain: domain, verdict: .ready, verdictSince: H.t(seconds), lastCheck: H.t(seconds),
                    lastDuration: 0.1))
        }
        var h = H(
            try H.configuration(["a.test", "b.test", "c.test", "d.test"]),
            book: [
                "a.test": entry("a.test", checked: -60), "b.test": entry("b.test", checked: -49.7),
                "c.test": entry("c.test", checked: -49.5), "d.test": entry("d.test", checked: -40),
            ])
        #expect(h.begin().contains(.start(["a.test"])))
        // a.test's report and commit come 0.3 s before b.test is due: neither starts b.test early.
        #expect(h.report("a.test", .healthy, at: 10) == [.append([.check(1, "a.test")]), .sleep(10.3)])
        #expect(h.commit(1, at: 10.1) == [.log("committed a.test")])
        #expect(h.tick(10.3) == [.start(["b.test", "c.test"]), .sleep(20)])
    }

    @Test("checks start with silences read at most silence_refresh before; a failed read keeps the last ones")
    func silencesBeforeStart() throws {
        var h = H(try H.configuration(), tunables: DaemonCore.Tunables(jitter: 0, startupWindow: 0))
        h.begin()
        let silence = Silence(
            id: "s1", domains: ["a.test"], startsAt: H.t(0), endsAt: H.t(3_600), author: "ops", reason: "move")
        h.end("a.test", .failed(reason: "read"), at: 1)
        #expect(h.tick(61) == [.readSilences, .sleep(71)])
        #expect(h.tick(61.1) == [], "one read at a time")
        #expect(h.send(.silencesRead([silence], now: H.t(61.2))) == [.start(["a.test"])])
        #expect(h.jobs["a.test"]?.silences == [silence])
        h.end("a.test", .failed(reason: "read"), at: 62)
        h.tick(122)
        #expect(h.send(.silencesRead(nil, now: H.t(122.1))) == [.start(["a.test"])])
        #expect(h.jobs["a.test"]?.silences == [silence])
    }

    @Test("a failed start-up finishes at once and checks nothing")
    func startupFailed() throws {
        var h = H(try H.configuration())
        #expect(h.send(.startupFailed(reason: "address in use")) == [.finish])
        #expect(h.core.phase == .failed("address in use"))
        #expect(h.begin() == [])
    }

    @Test("queries: the status line, health and overdue checks")
    func queries() throws {
        var h = H(try H.configuration())
        h.begin()
        h.report("a.test", .healthy, at: 1)
        h.commit(1, at: 1.1)
        h.end("b.test", .resourceShortage(reason: "EMFILE"), at: 2)
        #expect(h.core.statusLine() == "watching 2 domains: 1 ready; monitor.resources")
        #expect(h.core.health(now: H.t(20)) == .healthy)
        #expect(h.core.health(now: H.t(40)) != .healthy)
        #expect(h.core.overdue(now: H.t(100)) == nil)
        #expect(h.core.overdue(now: H.t(200)) != nil)
        #expect(h.core.isConfigured("a.test") && !h.core.isConfigured("c.test"))
        #expect(h.core.configuredNames == ["a.test", "b.test"])
    }

    struct Failure: Error {}
}
