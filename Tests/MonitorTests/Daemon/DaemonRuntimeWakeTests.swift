import Foundation
import MonitorCore
import MonitorStore
import Testing

// The runtime is the daemon's internal state; when it wakes the scheduler is tested here directly.
@testable import Monitor

/// A finished check wakes the scheduler only when the scheduler needs it: a slot it waits for, or a check due
/// before the moment it will look by itself.
@Suite("daemon runtime: waking the scheduler")
struct DaemonRuntimeWakeTests {
    let start = Date(timeIntervalSince1970: 1_795_000_000)

    func configuration(_ domains: [String], concurrency: Int) throws -> MonitorConfiguration {
        let yaml =
            "interval: 60s\nhttp:\n  concurrency: \(concurrency)\ndomains:\n" + domains.map { "  - \($0)\n" }.joined()
        return try ConfigurationLoader.load(text: yaml, fileName: "config.yml", environment: [:], readFile: { _ in "" })
    }

    func state(_ domain: String, checkedAt: Date) -> DomainState {
        DomainState(domain: domain, verdict: .ready, verdictSince: checkedAt, lastCheck: checkedAt, lastDuration: 0.1)
    }

    /// a.test is due at once, b.test in 30 s (checked 30 s ago).
    func runtime(concurrency: Int) throws -> DaemonRuntime {
        DaemonRuntime(
            configuration: try configuration(["a.test", "b.test"], concurrency: concurrency),
            states: [
                state("a.test", checkedAt: start.addingTimeInterval(-60)),
                state("b.test", checkedAt: start.addingTimeInterval(-30)),
            ],
            now: start)
    }

    @Test("a check whose next one is an interval away does not wake a scheduler that looks earlier by itself")
    func quietFinish() async throws {
        let runtime = try runtime(concurrency: 4)
        let taken = await runtime.takeDueJobs(now: start.addingTimeInterval(3))
        #expect(taken.jobs.map(\.domain) == ["a.test"])
        #expect(taken.deadline == start.addingTimeInterval(30))
        #expect(!runtime.schedulerWake.isPending)
        await runtime.finished("a.test", outcome: nil, now: start.addingTimeInterval(4))
        #expect(!runtime.schedulerWake.isPending, "a.test is next due in about 60 s, after b.test at 30 s")
    }

    @Test("a check finishing while every slot is taken wakes the scheduler")
    func slotFreed() async throws {
        let runtime = try runtime(concurrency: 1)
        let taken = await runtime.takeDueJobs(now: start.addingTimeInterval(3))
        #expect(taken.jobs.map(\.domain) == ["a.test"])
        #expect(taken.deadline == nil)
        await runtime.finished("a.test", outcome: nil, now: start.addingTimeInterval(4))
        #expect(runtime.schedulerWake.isPending)
    }

    @Test("a check whose next one comes before the scheduler's deadline wakes it")
    func earlierDeadline() async throws {
        // b.test is checked every 10 minutes and was checked 530 s ago: due 70 s from now, after a.test's next.
        let yaml = "interval: 60s\ndomains:\n  - a.test\n  - name: b.test\n    interval: 10m\n"
        let configuration = try ConfigurationLoader.load(
            text: yaml, fileName: "config.yml", environment: [:], readFile: { _ in "" })
        let runtime = DaemonRuntime(
            configuration: configuration,
            states: [
                state("a.test", checkedAt: start.addingTimeInterval(-60)),
                state("b.test", checkedAt: start.addingTimeInterval(-530)),
            ],
            now: start)
        let taken = await runtime.takeDueJobs(now: start.addingTimeInterval(3))
        #expect(taken.jobs.map(\.domain) == ["a.test"])
        #expect(taken.deadline == start.addingTimeInterval(70))
        await runtime.finished("a.test", outcome: nil, now: start.addingTimeInterval(4))
        #expect(runtime.schedulerWake.isPending, "a.test is next due in about 60 s, before the scheduler looks at 70 s")
    }
}
