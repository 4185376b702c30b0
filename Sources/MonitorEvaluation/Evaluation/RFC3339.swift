import Foundation

/// RFC 3339 timestamps (`2026-11-21T19:12:03Z`), the one time format of the JSON interface.
///
/// Read strictly, by hand: Foundation's ISO 8601 reading rolls `2026-02-30` over to March 2 and accepts
/// `T24:00:00` and the leap second `T23:59:60` (issue 32 §7), times no person means when ending a silence.
public enum RFC3339 {
    /// The timestamp of `date`, whole seconds, UTC.
    public static func string(_ date: Date) -> String {
        date.formatted(.iso8601)
    }

    /// Parses a time such as `string(_:)` writes; `nil` for anything `parse(_:)` refuses.
    public static func date(_ text: String) -> Date? {
        try? parse(text)
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`, every field in its calendar range.
    public static func parse(_ text: String) throws(RFC3339Error) -> Date {
        let bytes = Array(text.utf8)
        func number(_ start: Int, _ count: Int) -> Int? {
            guard start + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[start..<(start + count)] {
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        func byte(_ index: Int, in set: String) -> Bool { index < bytes.count && set.utf8.contains(bytes[index]) }
        guard let year = number(0, 4), byte(4, in: "-"), let month = number(5, 2), byte(7, in: "-"),
            let day = number(8, 2), byte(10, in: "Tt"), let hour = number(11, 2), byte(13, in: ":"),
            let minute = number(14, 2), byte(16, in: ":"), let second = number(17, 2)
        else { throw RFC3339Error(text, "expected a time like 2026-11-21T19:12:03Z") }
        guard (1...12).contains(month) else { throw RFC3339Error(text, "there is no month \(month)") }
        let days = daysIn(month: month, year: year)
        guard (1...days).contains(day) else {
            throw RFC3339Error(text, "month \(month) of \(year) has \(days) days, not \(day)")
        }
        guard hour <= 23 else { throw RFC3339Error(text, "the hour is 00 to 23 (write the next day's 00:00)") }
        guard minute <= 59 else { throw RFC3339Error(text, "the minute is 00 to 59") }
        guard second <= 59 else { throw RFC3339Error(text, "the second is 00 to 59 (leap seconds are not accepted)") }
        var index = 19
        var fraction = 0.0
        if byte(index, in: ".") {
            var scale = 0.1
            index += 1
            let start = index
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
                fraction += Double(bytes[index] - 0x30) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { throw RFC3339Error(text, "expected digits after the decimal point") }
        }
        var offsetSeconds = 0
        if byte(index, in: "Zz"), index + 1 == bytes.count {
            offsetSeconds = 0
        } else if byte(index, in: "+-"), index + 6 == bytes.count, let offsetHours = number(index + 1, 2),
            byte(index + 3, in: ":"), let offsetMinutes = number(index + 4, 2)
        {
            guard offsetHours <= 23, offsetMinutes <= 59 else {
                throw RFC3339Error(text, "the offset is at most 23:59")
            }
            offsetSeconds = (offsetHours * 3_600 + offsetMinutes * 60) * (bytes[index] == UInt8(ascii: "-") ? -1 : 1)
        } else {
            throw RFC3339Error(text, "expected Z or an offset like +02:00 after the seconds")
        }
        // Every field is in its range by now, so the calendar has nothing to roll over.
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        guard let base = calendar.date(from: components) else {
            throw RFC3339Error(text, "expected a time like 2026-11-21T19:12:03Z")
        }
        return base.addingTimeInterval(fraction - Double(offsetSeconds))
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}

/// Why a text is not an RFC 3339 time, with the text (at most 60 characters).
public struct RFC3339Error: Error, Sendable, Hashable, CustomStringConvertible {
    public var text: String
    public var reason: String

    init(_ text: String, _ reason: String) {
        self.text = String(text.prefix(60))
        self.reason = reason
    }

    public var description: String { "'\(text)' is not a valid time: \(reason)" }
}
