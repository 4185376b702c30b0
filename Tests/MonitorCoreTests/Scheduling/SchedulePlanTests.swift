import Foundation
import MonitorCore
import Testing

@Suite("Schedule plan")
struct SchedulePlanTests {
    let start = Date(timeIntervalSince1970: 1_795_000_000)

    @Test("new domains are spread over the start-up window, never beyond their interval")
    func spreadAtStart() {
        var plan = SchedulePlan(startupWindow: 60)
        var values = [0.0, 0.5, 0.99][...]
        plan.setDomains(
            [("a.test", 900), ("b.test", 900), ("c.test", 20)], now: start, random: { values.popFirst() ?? 0 })
        #expect(plan.entries["a.test"]?.nextDue == start)
        #expect(plan.entries["b.test"]?.nextDue == start.addingTimeInterval(30))
        #expect(plan.entries["c.test"]?.nextDue == start.addingTimeInterval(20 * 0.99))
        #expect(plan.due(at: start) == ["a.test"])
        #expect(plan.nextWake == start)
    }

    @Test("a restart continues from each domain's last check")
    func continuesFromLastCheck() {
        var plan = SchedulePlan()
        plan.setDomains(
            [("a.test", 900), ("b.test", 900)],
            lastChecks: ["a.test": start.addingTimeInterval(-600), "b.test": start.addingTimeInterval(-5000)],
            now: start, random: { 0 })
        #expect(plan.entries["a.test"]?.nextDue == start.addingTimeInterval(300))
        #expect(plan.entries["b.test"]?.nextDue == start)
    }

    @Test("a domain in flight is never due, and its next check comes one interval (± jitter) after it finished")
    func inFlightAndJitter() {
        var plan = SchedulePlan(jitter: 0.1)
        plan.setDomains([("a.test", 1000)], now: start, random: { 0 })
        plan.started("a.test")
        #expect(plan.due(at: start.addingTimeInterval(10_000)).isEmpty)
        #expect(plan.nextWake == nil)
        plan.finished("a.test", at: start, cdnBehind: false, cdnExpiry: nil, random: { 1 })
        #expect(plan.entries["a.test"]?.nextDue == start.addingTimeInterval(1100))
        plan.finished("a.test", at: start, cdnBehind: false, cdnExpiry: nil, random: { 0 })
        #expect(plan.entries["a.test"]?.nextDue == start.addingTimeInterval(900))
    }

    @Test("while Apple is behind, the next check follows its cache expiry, but never sooner than the minimum gap")
    func followsCDNExpiry() {
        var plan = SchedulePlan(jitter: 0, minimumGap: 30)
        plan.setDomains([("a.test", 3600)], now: start, random: { 0 })
        plan.finished("a.test", at: start, cdnBehind: true, cdnExpiry: start.addingTimeInterval(600), random: { 0.5 })
        #expect(plan.entries["a.test"]?.nextDue == start.addingTimeInterval(610))
        #expect(plan.entries["a.test"]?.followsCDNExpiry == true)
        plan.finished("a.test", at: start, cdnBehind: true, cdnExpiry: start, random: { 0.5 })
        #expect(plan.entries["a.test"]?.nextDue == start.addingTimeInterval(30))
        plan.finished("a.test", at: start, cdnBehind: true, cdnExpiry: start.addingTimeInterval(7200), random: { 0.5 })
        #expect(plan.entries["a.test"]?.nextDue == start.addingTimeInterval(3600))
        plan.finished("a.test", at: start, cdnBehind: false, cdnExpiry: start.addingTimeInterval(600), random: { 0.5 })
        #expect(plan.entries["a.test"]?.nextDue == start.addingTimeInterval(3600))
    }

    @Test("a reload keeps kept domains' schedules, pulls them in when the interval shrinks, drops removed ones")
    func reload() {
        var plan = SchedulePlan()
        plan.setDomains([("a.test", 3600), ("b.test", 3600)], now: start, random: { 0 })
        plan.finished("a.test", at: start, cdnBehind: false, cdnExpiry: nil, random: { 0.5 })
        let later = start.addingTimeInterval(100)
        plan.setDomains([("a.test", 300), ("c.test", 3600)], now: later, random: { 0 })
        #expect(plan.entries["a.test"]?.nextDue == later.addingTimeInterval(300))
        #expect(plan.entries["b.test"] == nil)
        #expect(plan.entries["c.test"]?.nextDue == later)
    }
}
