import Foundation

/// HTTP-dates (RFC 9110 §5.6.7): the IMF-fixdate senders must use, and the obsolete RFC 850 and asctime forms
/// recipients must accept.
///
/// Parsed by hand: every CDN check reads two of them (`Date`, `Last-Modified`), and Foundation's `DateFormatter`
/// on Linux builds an ICU formatter for each use — 13% of a cluster node's CPU at 100,000 domains (perf, issue 34).
/// The grammar is fixed, case-sensitive and ASCII; `HTTPDateTests` compares this parser with `DateFormatter`.
package enum HTTPDate {
    package static func parse(_ text: String) -> Date? {
        var reader = Reader(bytes: Array(text.utf8))
        if let date = reader.imfFixdate() { return date }
        reader.position = 0
        if let date = reader.rfc850Date() { return date }
        reader.position = 0
        return reader.asctimeDate()
    }

    private static let shortDays = utf8(["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"])
    private static let longDays = utf8(["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"])
    private static let months = utf8([
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ])

    private static func utf8(_ words: [String]) -> [[UInt8]] { words.map { Array($0.utf8) } }

    private struct Reader {
        let bytes: [UInt8]
        var position = 0

        /// `Sun, 06 Nov 1994 08:49:37 GMT`
        mutating func imfFixdate() -> Date? {
            guard word(in: HTTPDate.shortDays) != nil, literal(", "), let day = digits(2), literal(" "),
                let month = month(), literal(" "), let year = digits(4), literal(" "), let time = timeOfDay(),
                literal(" GMT"), atEnd
            else { return nil }
            return HTTPDate.date(year: year, month: month, day: day, time: time)
        }

        /// `Sunday, 06-Nov-94 08:49:37 GMT`: a two-digit year below 70 is in this century, as curl reads it.
        mutating func rfc850Date() -> Date? {
            guard word(in: HTTPDate.longDays) != nil, literal(", "), let day = digits(2), literal("-"),
                let month = month(), literal("-"), let short = digits(2), literal(" "), let time = timeOfDay(),
                literal(" GMT"), atEnd
            else { return nil }
            return HTTPDate.date(year: short < 70 ? 2000 + short : 1900 + short, month: month, day: day, time: time)
        }

        /// `Sun Nov  6 08:49:37 1994` (a one-digit day is padded with a space).
        mutating func asctimeDate() -> Date? {
            guard word(in: HTTPDate.shortDays) != nil, literal(" "), let month = month(), literal(" ") else {
                return nil
            }
            let day: Int
            if literal(" "), let digit = digits(1) {
                day = digit
            } else if let two = digits(2) {
                day = two
            } else {
                return nil
            }
            guard literal(" "), let time = timeOfDay(), literal(" "), let year = digits(4), atEnd else { return nil }
            return HTTPDate.date(year: year, month: month, day: day, time: time)
        }

        var atEnd: Bool { position == bytes.count }

        mutating func literal(_ text: StaticString) -> Bool {
            let count = text.utf8CodeUnitCount
            guard position + count <= bytes.count else { return false }
            let matches = text.withUTF8Buffer { expected in
                (0..<count).allSatisfy { bytes[position + $0] == expected[$0] }
            }
            if matches { position += count }
            return matches
        }

        /// Exactly `count` ASCII digits.
        mutating func digits(_ count: Int) -> Int? {
            guard position + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[position..<position + count] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            position += count
            return value
        }

        /// The index of the word of `words` that starts here.
        mutating func word(in words: [[UInt8]]) -> Int? {
            for (index, utf8) in words.enumerated() {
                if position + utf8.count <= bytes.count, bytes[position..<position + utf8.count].elementsEqual(utf8) {
                    position += utf8.count
                    return index
                }
            }
            return nil
        }

        /// 1 to 12.
        mutating func month() -> Int? { word(in: HTTPDate.months).map { $0 + 1 } }

        /// Seconds since midnight of `HH:MM:SS`; a leap second reads as the next second.
        mutating func timeOfDay() -> Int? {
            guard let hour = digits(2), literal(":"), let minute = digits(2), literal(":"), let second = digits(2),
                hour < 24, minute < 60, second <= 60
            else { return nil }
            return hour * 3_600 + minute * 60 + second
        }
    }

    /// The instant, or nil for a day its month does not have.
    private static func date(year: Int, month: Int, day: Int, time: Int) -> Date? {
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard day >= 1, day <= lengths[month - 1] else { return nil }
        // Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant, "chrono-Compatible Low-Level Date
        // Algorithms", days_from_civil).
        let shifted = month <= 2 ? year - 1 : year
        let era = (shifted >= 0 ? shifted : shifted - 399) / 400
        let yearOfEra = shifted - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return Date(timeIntervalSince1970: Double(days * 86_400 + time))
    }
}
