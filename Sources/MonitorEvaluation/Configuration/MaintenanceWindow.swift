import Foundation

/// A recurring maintenance window of the configuration (`maintenance:`): on some weekdays, from a local start time,
/// for a duration, in a time zone. While one is open it acts as a silence (`Silence`, `SilenceGate`).
///
/// Modelled on Gatus's `maintenance` (`start`, `duration`, `timezone`, `every`), with a name and optional domains.
/// Time-zone rules:
/// - The start is a wall-clock time in `timeZone` on each listed day (local days: a Monday window opens on
///   Monday in that zone, whatever UTC says).
/// - `duration` is elapsed time: a 2 h window over a DST change still lasts 2 h of real time.
/// - A start that does not exist that day (inside the hour skipped in spring) opens at the first moment after the
///   gap; a start that happens twice (the hour repeated in autumn) opens at the first of them.
public struct MaintenanceWindow: Sendable, Hashable {
    /// The days of the week, as `days:` names them; Calendar's `weekday` is 1 (Sunday) … 7 (Saturday).
    public enum Day: String, Sendable, Hashable, CaseIterable, Comparable {
        case sunday, monday, tuesday, wednesday, thursday, friday, saturday

        var weekday: Int { Self.allCases.firstIndex(of: self)! + 1 }

        public static func < (lhs: Day, rhs: Day) -> Bool { lhs.weekday < rhs.weekday }
    }

    /// `maintenance:NAME` in `status` and `silence list`.
    public var name: String
    /// Every day when empty (as Gatus's `every: []`).
    public var days: Set<Day>
    /// Local start, minutes after midnight.
    public var startMinute: Int
    public var duration: Duration
    public var timeZone: TimeZone
    /// The A-labels it covers; `nil` covers every domain.
    public var domains: [String]?

    public init(
        name: String, days: Set<Day> = [], startMinute: Int, duration: Duration, timeZone: TimeZone,
        domains: [String]? = nil
    ) {
        self.name = name
        self.days = days
        self.startMinute = startMinute
        self.duration = duration
        self.timeZone = timeZone
        self.domains = domains
    }

    /// The longest window accepted: a longer one would overlap its own next week.
    public static let longest: Duration = .seconds(7 * 86_400)

    /// The latest start at or before `now` whose occurrence has not ended yet.
    ///
    /// Days are civil dates, counted on a UTC calendar (a date's weekday does not depend on the zone); only the
    /// start's wall-clock time is resolved in `timeZone`.
    package func openedAt(before now: Date) -> Date? {
        var zoned = Calendar(identifier: .gregorian)
        zoned.timeZone = timeZone
        let today = zoned.dateComponents([.year, .month, .day], from: now)
        guard
            let todayDate = Self.civil.date(from: DateComponents(year: today.year, month: today.month, day: today.day))
        else { return nil }
        // Far enough back to find an occurrence that opened up to `longest` ago, plus a day for zone offsets.
        let daysBack = Int((length / 86_400).rounded(.up)) + 1
        for back in 0...daysBack {
            let day = todayDate.addingTimeInterval(-Double(back) * 86_400)
            if !days.isEmpty, !days.contains(where: { $0.weekday == Self.civil.component(.weekday, from: day) }) {
                continue
            }
            let start = self.start(on: day)
            if start <= now, now < start.addingTimeInterval(length) { return start }
        }
        return nil
    }

    /// A calendar of civil dates: Gregorian in UTC.
    private static let civil: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        return calendar
    }()

    /// The moment the local wall clock in `timeZone` shows `startMinute` on the civil `day` (its UTC midnight):
    /// the first of two in a repeated hour, the end of the gap in a skipped one.
    private func start(on day: Date) -> Date {
        // The wall-clock time written as if it were UTC; the real moment is that minus the zone's offset then.
        let wall = day.addingTimeInterval(Double(startMinute) * 60)
        let offsets = Set([-95_000.0, 0, 95_000].map { timeZone.secondsFromGMT(for: wall.addingTimeInterval($0)) })
        let candidates = offsets.map { wall.addingTimeInterval(-Double($0)) }
        let valid = candidates.filter { Double(timeZone.secondsFromGMT(for: $0)) == wall.timeIntervalSince($0) }
        if let first = valid.min() { return first }
        // No moment shows that time: it lies in the hour skipped by a change; open when the change happens.
        let earliest = candidates.min() ?? wall
        return timeZone.nextDaylightSavingTimeTransition(after: earliest.addingTimeInterval(-1)) ?? earliest
    }

    package var length: TimeInterval { duration.seconds }
}
