import Foundation
import MonitorCore
import Testing

// The runtime is the daemon's internal state; its scheduling rule is tested here directly.
@testable import Monitor

@Suite("daemon runtime across reloads")
struct DaemonRuntimeReloadTests {
    let start = Date(timeIntervalSince1970: 1_795_000_000)

    func configuration(_ domains: [String]) throws -> MonitorConfiguration {
        let yaml = "interval: 60s\ndomains:\n" + domains.map { "  - \($0)\n" }.joined()
        return try ConfigurationLoader.load(
            text: yaml, fileName: "config.yml", environment: [:], readFile: { _ in "" })
    }

    /// Every job the runtime hands out until `end`, one second apart.
    func jobs(_ runtime: DaemonRuntime, from: Date, seconds: Int) async -> [String] {
        var names: [String] = []
        for second in 0...seconds {
            names += await runtime.takeDueJobs(now: from.addingTimeInterval(Double(second))).jobs.map(\.domain)
        }
        return names
    }

    @Test("a domain removed and added back while its check runs is not checked twice at once")
    func reAddedWhileInFlight() async throws {
        let runtime = DaemonRuntime(configuration: try configuration(["a.test", "b.test"]), states: [], now: start)
        let first = await jobs(runtime, from: start, seconds: 60)
        #expect(first.sorted() == ["a.test", "b.test"])
        // a.test's check is still running through two reloads: removed, then added back.
        let later = start.addingTimeInterval(61)
        await runtime.reload(try configuration(["b.test"]), now: later)
        await runtime.reload(try configuration(["a.test", "b.test"]), now: later)
        #expect(await !jobs(runtime, from: later, seconds: 30).contains("a.test"))
        #expect(await runtime.runningCount == 2)
        // Once that check finishes, a.test is scheduled again, once.
        await runtime.finished("a.test", outcome: nil, now: later.addingTimeInterval(31))
        #expect(
            await jobs(runtime, from: later.addingTimeInterval(31), seconds: 120).filter { $0 == "a.test" }.count == 1)
    }

    @Test("a domain added back by a reload continues from its stored entry: its state and run, on its schedule")
    func addedBackContinuesFromStore() async throws {
        let state = DomainState(
            domain: "a.test", verdict: .originBroken, verdictSince: start, lastCheck: start.addingTimeInterval(-10),
            lastDuration: 0.2)
        let stored = BookEntry(state: state, run: RunMark(id: 7, key: "k"))
        let runtime = DaemonRuntime(configuration: try configuration(["b.test"]), states: [], now: start)
        await runtime.reload(try configuration(["a.test", "b.test"]), now: start, stored: ["a.test": stored])
        // Checked 10 s ago at a 60 s interval: not due within the next 40 s, due by 60 s (± 10 % jitter).
        #expect(await !jobs(runtime, from: start, seconds: 40).contains("a.test"))
        let job = await runtime.takeDueJobs(now: start.addingTimeInterval(60)).jobs.first { $0.domain == "a.test" }
        #expect(job?.entry == stored)
        // An entry the book already holds is not replaced by the stored one.
        await runtime.reload(
            try configuration(["a.test", "b.test"]), now: start.addingTimeInterval(61),
            stored: ["a.test": BookEntry()])
        await runtime.finished("a.test", outcome: nil, now: start.addingTimeInterval(62))
        let again = await runtime.takeDueJobs(now: start.addingTimeInterval(130)).jobs.first { $0.domain == "a.test" }
        #expect(again?.entry == stored)
    }
}
