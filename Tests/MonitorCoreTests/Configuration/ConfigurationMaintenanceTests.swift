import Foundation
import MonitorCore
import MonitorEvaluation
import Testing

@Suite("Configuration: maintenance windows")
struct ConfigurationMaintenanceTests {
    @Test("a window reads its days, start (quoted or not), duration, time zone and domains")
    func reads() throws {
        let configuration = try ConfigurationTestSupport.load(
            """
            domains: [example.com, Example.org]
            maintenance:
              - name: deploy
                days: [Tuesday, thursday]
                start: 22:00
                duration: 1h30m
                timezone: Europe/Berlin
                domains: [EXAMPLE.com]
              - start: "03:05"
                duration: 10m
            """)
        let windows = configuration.maintenance
        #expect(windows.count == 2)
        let deploy = try #require(windows.first)
        #expect(deploy.name == "deploy")
        #expect(deploy.days == [.tuesday, .thursday])
        #expect(deploy.startMinute == 22 * 60)
        #expect(deploy.duration == .seconds(5_400))
        #expect(deploy.timeZone.identifier == "Europe/Berlin")
        #expect(deploy.domains == ["example.com"])
        let nightly = try #require(windows.last)
        #expect(nightly.name == "2")
        #expect(nightly.days.isEmpty)
        #expect(nightly.startMinute == 185)
        #expect(nightly.timeZone.secondsFromGMT() == 0)
        #expect(nightly.domains == nil)
    }

    @Test(
        "every mistake is named by file, line and key",
        arguments: [
            ("  - start: '25:00'\n    duration: 1h\n", 3, "maintenance[0].start", "time of day"),
            ("  - duration: 1h\n", 3, "maintenance[0].start", "needs a start"),
            ("  - start: '22:00'\n", 3, "maintenance[0].duration", "needs a duration"),
            ("  - start: '22:00'\n    duration: 8d\n", 4, "maintenance[0].duration", "at most 7d"),
            (
                "  - start: '22:00'\n    duration: 1h\n    timezone: Mars/Olympus\n", 5, "maintenance[0].timezone",
                "unknown time zone"
            ),
            ("  - start: '22:00'\n    duration: 1h\n    days: [funday]\n", 5, "maintenance[0].days[0]", "not a day"),
            (
                "  - start: '22:00'\n    duration: 1h\n    domains: [other.example]\n", 5, "maintenance[0].domains[0]",
                "not one of the configured domains"
            ),
            (
                "  - start: '22:00'\n    duration: 1h\n    every: [monday]\n", 5, "maintenance[0].every",
                "unknown key 'every'"
            ),
        ])
    func problems(window: String, line: Int, key: String, message: String) throws {
        let problems = ConfigurationTestSupport.problems("domains: [example.com]\nmaintenance:\n" + window)
        let problem = try #require(problems.first, "no problem reported")
        #expect(problem.line == line)
        #expect(problem.keyPath == key)
        #expect(problem.message.contains(message), "\(problem.message)")
        #expect(problem.description.hasPrefix("config.yml:\(line): \(key): "), "\(problem.description)")
    }

    @Test("two windows with one name are refused")
    func duplicateName() {
        let problems = ConfigurationTestSupport.problems(
            "maintenance:\n  - {name: a, start: '01:00', duration: 1h}\n  - {name: a, start: '02:00', duration: 1h}\n")
        #expect(problems.map(\.keyPath) == ["maintenance[1].name"])
    }
}
