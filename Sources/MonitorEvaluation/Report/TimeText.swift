import Foundation

/// How a time is written for a person: RFC 3339 in a time zone, with its offset (`2026-11-28T15:04:05+09:00`), or in
/// UTC (`2026-11-28T06:04:05Z`).
///
/// The command-line tool writes local time only when its standard output is a terminal (`TimeText.current`, set
/// once in `main`); piped or redirected text stays UTC so scripts and logs read one stable form. JSON, webhooks,
/// logs and finding messages (which JSON and webhooks carry too) never go through here: they are `RFC3339.string`,
/// always UTC.
///
/// ```swift
/// TimeText(zone: TimeZone(identifier: "Asia/Tokyo")).string(date)   // 2026-11-28T15:04:05+09:00
/// TimeText.$current.withValue(.utc) { date.shownTime }               // 2026-11-28T06:04:05Z
/// ```
public struct TimeText: Sendable, Hashable {
    /// The zone times are written in; `nil` for UTC.
    public var zone: TimeZone?

    public init(zone: TimeZone?) {
        self.zone = zone
    }

    /// UTC, `Z`: what every non-terminal output writes.
    public static let utc = TimeText(zone: nil)

    /// How the text being printed writes times: UTC unless the command-line tool found a terminal on its standard
    /// output. A task-local, so a test (or a command) chooses it for one rendering without a global.
    @TaskLocal public static var current = TimeText.utc

    private static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        return calendar
    }()

    /// `date` in `zone`, whole seconds, with the zone's offset at that moment (`Z` where it is UTC's). An offset
    /// with seconds (a historical local mean time) is written to the minute and the time shifted by the same
    /// amount, so the string still names exactly `date`'s minute and second.
    public func string(_ date: Date) -> String {
        let offsetMinutes = (zone?.secondsFromGMT(for: date) ?? 0) / 60
        // UTC is exactly what JSON writes, byte for byte.
        guard offsetMinutes != 0 else { return RFC3339.string(date) }
        let local = date.addingTimeInterval(TimeInterval(offsetMinutes * 60))
        let parts = Self.calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: local)
        func two(_ value: Int?) -> String {
            let value = value ?? 0
            return value < 10 ? "0\(value)" : String(value)
        }
        let year = String(parts.year ?? 0)
        var text = String(repeating: "0", count: max(0, 4 - year.count)) + year
        text += "-\(two(parts.month))-\(two(parts.day))T\(two(parts.hour)):\(two(parts.minute)):\(two(parts.second))"
        let magnitude = abs(offsetMinutes)
        return text + (offsetMinutes < 0 ? "-" : "+") + "\(two(magnitude / 60)):\(two(magnitude % 60))"
    }
}

extension Date {
    /// This time for a person reading text: `TimeText.current` (local with its offset on a terminal, else UTC).
    /// Never for JSON, webhooks or logs: those are `rfc3339`.
    public var shownTime: String {
        TimeText.current.string(self)
    }
}
