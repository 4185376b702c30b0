import Foundation
import MonitorCore
import Testing

/// The heap behind `takeDue` and `nextWake` must give exactly what a scan of every entry gives.
@Suite("Schedule plan queue")
struct SchedulePlanQueueTests {
    let start = Date(timeIntervalSince1970: 1_795_000_000)

    /// A small deterministic generator, so a failure replays the same way.
    struct Steps {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        mutating func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
    }

    /// What a scan says is next: the earliest due time of an entry not in flight.
    func scannedWake(_ plan: SchedulePlan) -> Date? {
        plan.entries.values.filter { !$0.inFlight }.map(\.nextDue).min()
    }

    @Test("takeDue and nextWake agree with a scan through starts, finishes, CDN follow-ups and reloads")
    func agreesWithScan() {
        var steps = Steps()
        var plan = SchedulePlan(startupWindow: 60)
        let names = (0..<200).map { "d\($0).test" }
        plan.setDomains(names.map { ($0, 60) }, now: start, random: { steps.next() })
        var now = start
        var running: [String] = []
        for round in 0..<400 {
            now = now.addingTimeInterval(steps.next() * 5)
            #expect(plan.nextWake == scannedWake(plan), "round \(round)")
            let limit = Int(steps.next() * 8)
            let expected = Array(plan.due(at: now).prefix(limit))
            let taken = plan.takeDue(at: now, limit: limit)
            #expect(taken == expected, "round \(round)")
            #expect(taken.allSatisfy { plan.entries[$0]?.inFlight == true })
            running += taken
            // Finish about half of what runs, some of them behind the CDN with an expiry soon.
            running.shuffle(using: &steps)
            let finishing = running.prefix(running.count / 2)
            for name in finishing {
                let behind = steps.next() < 0.2
                plan.finished(
                    name, at: now, cdnBehind: behind, cdnExpiry: now.addingTimeInterval(steps.next() * 120),
                    random: { steps.next() })
            }
            running.removeFirst(finishing.count)
            if round % 97 == 96 {
                // A reload drops some domains, keeps the rest (some with a shorter interval) and adds new ones.
                let kept = names.filter { _ in steps.next() < 0.8 }.map { ($0, steps.next() < 0.5 ? 30.0 : 60.0) }
                plan.setDomains(kept + [("new\(round).test", 60)], now: now, random: { steps.next() })
                running.removeAll { plan.entries[$0] == nil }
            }
        }
        #expect(plan.nextWake == scannedWake(plan))
    }

    @Test("a domain in flight is never taken twice, and comes back after it finishes")
    func inFlightNotTakenTwice() {
        var plan = SchedulePlan()
        plan.setDomains([("a.test", 60)], now: start, random: { 0 })
        #expect(plan.takeDue(at: start, limit: 5) == ["a.test"])
        #expect(plan.takeDue(at: start.addingTimeInterval(1_000), limit: 5).isEmpty)
        #expect(plan.nextWake == nil)
        plan.finished("a.test", at: start, cdnBehind: false, cdnExpiry: nil, random: { 0.5 })
        #expect(plan.nextWake == start.addingTimeInterval(60))
        #expect(plan.takeDue(at: start.addingTimeInterval(59), limit: 5).isEmpty)
        #expect(plan.takeDue(at: start.addingTimeInterval(60), limit: 5) == ["a.test"])
    }
}

extension SchedulePlanQueueTests.Steps: RandomNumberGenerator {
    mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state
    }
}
