import Foundation
import MonitorCore
import MonitorEvaluation
import Testing

/// Issue 32 §7: `timezone: UTC+5` is refused (POSIX and ISO read its sign oppositely); IANA names and `±HH:MM` work.
@Suite("maintenance.timezone")
struct MaintenanceTimeZoneTests {
    @Test(
        "IANA names and explicit offsets are read",
        arguments: [("Europe/Berlin", nil), ("UTC", 0), ("+05:00", 18_000), ("-03:30", -12_600), ("+00:00", 0)]
            as [(String, Int?)])
    func accepted(text: String, offset: Int?) throws {
        let zone = try MaintenanceTimeZone.parse(text).get()
        if let offset { #expect(zone.secondsFromGMT() == offset) } else { #expect(zone.identifier == text) }
    }

    @Test(
        "UTC+5, GMT-3 and unknown names are errors at the key's line, saying what to write",
        arguments: [
            ("UTC+5", "is ambiguous"), ("gmt-3", "is ambiguous"), ("UTC+05:00", "is ambiguous"),
            ("Mars/Olympus", "unknown time zone"), ("+5:00", "unknown time zone"), ("+05:60", "unknown time zone"),
        ])
    func refused(text: String, message: String) {
        let problems = ConfigurationTestSupport.problems(
            "maintenance:\n  - start: '22:00'\n    duration: 1h\n    timezone: '\(text)'\n")
        #expect(problems.count == 1, "\(problems)")
        #expect(problems.first?.keyPath == "maintenance[0].timezone")
        #expect(problems.first?.line == 4)
        #expect(problems.first?.message.contains(message) == true, "\(problems.first?.message ?? "none")")
    }
}
