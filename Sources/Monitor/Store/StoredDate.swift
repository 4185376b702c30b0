import Foundation
import GRDB

/// A `Date` as GRDB stores it (`yyyy-MM-dd HH:mm:ss.SSS`, UTC, rounded to the millisecond), written without
/// GRDB's `DateFormatter`.
///
/// Every check binds at least one date (its run's `last_seen`), and ICU's formatter took ~35 µs of it, about 1% of
/// the daemon's CPU per check. The text is GRDB's to the character (a test compares the two over many dates), so
/// a column written either way compares and sorts as one. Dates before 1970 or after 9999 go through GRDB: ICU
/// switches to the Julian calendar before 1582, and the monitor never writes such dates anyway.
enum StoredDate {
    static func value(_ date: Date) -> DatabaseValue {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        guard milliseconds.isFinite, milliseconds >= 0, milliseconds < 253_402_300_800_000 else {
            return date.databaseValue
        }
        // Not negative (checked above), so plain division and remainder split it.
        let total = Int64(milliseconds)
        let millisecond = Int(total % 1000)
        let seconds = total / 1000
        let secondOfDay = Int(seconds % 86_400)
        let days = seconds / 86_400
        let (year, month, day) = civilDate(daysSince1970: days)
        var text = ""
        text.reserveCapacity(23)
        append(year, digits: 4, to: &text)
        text.append("-")
        append(month, digits: 2, to: &text)
        text.append("-")
        append(day, digits: 2, to: &text)
        text.append(" ")
        append(secondOfDay / 3600, digits: 2, to: &text)
        text.append(":")
        append(secondOfDay / 60 % 60, digits: 2, to: &text)
        text.append(":")
        append(secondOfDay % 60, digits: 2, to: &text)
        text.append(".")
        append(millisecond, digits: 3, to: &text)
        return text.databaseValue
    }

    /// The proleptic Gregorian date `days` after 1970-01-01 (Howard Hinnant's `civil_from_days`).
    private static func civilDate(daysSince1970 days: Int64) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (Int(year), Int(month), Int(day))
    }

    private static func append(_ value: Int, digits: Int, to text: inout String) {
        let digitsText = String(value)
        if digitsText.count < digits { text.append(String(repeating: "0", count: digits - digitsText.count)) }
        text.append(digitsText)
    }
}
