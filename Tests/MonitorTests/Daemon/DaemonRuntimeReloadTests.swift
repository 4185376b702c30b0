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
}
