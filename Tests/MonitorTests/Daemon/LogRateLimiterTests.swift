import Foundation
import MonitorDaemon
import Testing

@Suite("Log rate limiting")
struct LogRateLimiterTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    @Test("a thousand lines of one kind in a minute write five, then one line with the count held back")
    func flood() {
        var limiter = LogRateLimiter(burst: 5, window: 60)
        var written = 0
        var summaries: [String] = []
        for index in 0..<1_000 {
            let admission = limiter.admit(
                kind: "delivery failed", summary: ("delivery: delivery failed", " webhook=ops"),
                now: Self.start.addingTimeInterval(Double(index) * 0.05))
            written += admission.write ? 1 : 0
            summaries += admission.summaries
        }
        #expect(written == 5)
        #expect(summaries.isEmpty)
        let later = limiter.admit(
            kind: "delivery failed", summary: ("delivery: delivery failed", " webhook=ops"),
            now: Self.start.addingTimeInterval(61))
        #expect(later.write)
        #expect(later.summaries == ["delivery: delivery failed repeated 995 more times in the last minute webhook=ops"])
    }

    @Test("at exit, the counts of every open window are written")
    func drain() {
        var limiter = LogRateLimiter(burst: 1, window: 60)
        for _ in 0..<4 { _ = limiter.admit(kind: "a", summary: ("a", ""), now: Self.start) }
        _ = limiter.admit(kind: "b", summary: ("b", ""), now: Self.start)
        #expect(limiter.drain() == ["a repeated 3 more times in the last minute"])
        #expect(limiter.drain().isEmpty)
    }

    @Test("another kind's lines are not held back by a flood")
    func kindsAreSeparate() {
        var limiter = LogRateLimiter(burst: 2, window: 60)
        for _ in 0..<10 { _ = limiter.admit(kind: "a", summary: ("a", ""), now: Self.start) }
        #expect(limiter.admit(kind: "b", summary: ("b", ""), now: Self.start).write)
    }

    @Test(
        "attempts, ids, times and error wording do not make a new kind; a domain does, unless the line is a webhook's")
    func kinds() {
        let first = LogRateLimiter.kind(
            label: "delivery", level: "warning", message: "delivery failed",
            fields: [
                "webhook": "ops", "attempt": "1", "delivery_id": "msg_1", "domain": "a.example",
                "error": "connect: after 1 ms", "next_attempt": "2026-11-23T10:00:00Z",
            ])
        let second = LogRateLimiter.kind(
            label: "delivery", level: "warning", message: "delivery failed",
            fields: [
                "webhook": "ops", "attempt": "7", "delivery_id": "msg_9", "domain": "b.example",
                "error": "connect: after 3 ms", "next_attempt": "2026-11-23T10:05:00Z",
            ])
        #expect(first == second)
        let otherHook = LogRateLimiter.kind(
            label: "delivery", level: "warning", message: "delivery failed", fields: ["webhook": "pager"])
        #expect(otherHook != first)
        let domainA = LogRateLimiter.kind(
            label: "scheduler", level: "error", message: "checked", fields: ["domain": "a.example", "duration": "1"])
        let domainB = LogRateLimiter.kind(
            label: "scheduler", level: "error", message: "checked", fields: ["domain": "b.example", "duration": "1"])
        #expect(domainA != domainB)
    }
}
