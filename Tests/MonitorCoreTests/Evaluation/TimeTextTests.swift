import Foundation
import MonitorCore
import MonitorEvaluation
import Testing

/// Issue 35 §19: the one function that writes a time for a person, local with its offset or UTC.
@Suite("time text")
struct TimeTextTests {
    /// 2026-11-28T06:04:05Z.
    static let instant = RFC3339.date("2026-11-28T06:04:05Z")!

    /// The zone of the system's database; a missing one is recorded (a `nil` zone would write UTC).
    static func zone(_ identifier: String) -> TimeZone? {
        let zone = TimeZone(identifier: identifier)
        #expect(zone != nil, "no zone \(identifier) on this system")
        return zone
    }

    @Test(
        "RFC 3339 with the zone's offset at that moment; UTC and zones at UTC's offset write Z, byte for byte as JSON",
        arguments: [
            ("Asia/Tokyo", "2026-11-28T15:04:05+09:00"), ("America/New_York", "2026-11-28T01:04:05-05:00"),
            ("Asia/Kolkata", "2026-11-28T11:34:05+05:30"), ("America/St_Johns", "2026-11-28T02:34:05-03:30"),
            ("Europe/London", "2026-11-28T06:04:05Z"), ("UTC", "2026-11-28T06:04:05Z"),
        ])
    func zones(zone: String, expected: String) {
        let text = TimeText(zone: Self.zone(zone)).string(Self.instant)
        #expect(text == expected)
        // What it writes still names the same instant.
        #expect(RFC3339.date(text) == Self.instant)
    }

    @Test("the offset follows daylight saving at the moment written, not now")
    func daylightSaving() {
        let berlin = TimeText(zone: Self.zone("Europe/Berlin"))
        #expect(berlin.string(RFC3339.date("2026-07-01T12:00:00Z")!) == "2026-07-01T14:00:00+02:00")
        #expect(berlin.string(RFC3339.date("2026-01-01T12:00:00Z")!) == "2026-01-01T13:00:00+01:00")
    }

    @Test("shownTime is UTC by default and the task's choice within withValue")
    func current() {
        #expect(Self.instant.shownTime == "2026-11-28T06:04:05Z")
        #expect(TimeText.utc.string(Self.instant) == RFC3339.string(Self.instant))
        let tokyo = TimeText(zone: Self.zone("Asia/Tokyo"))
        TimeText.$current.withValue(tokyo) {
            #expect(Self.instant.shownTime == "2026-11-28T15:04:05+09:00")
            // JSON's form is untouched by the terminal's choice.
            #expect(Self.instant.rfc3339 == "2026-11-28T06:04:05Z")
        }
    }
}
