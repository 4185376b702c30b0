import Foundation
import GRDB

/// An instant as the store keeps it: an INTEGER of whole milliseconds since 1970-01-01 00:00 UTC.
///
/// Integers compare, sort and index as time in SQL, take 6 bytes of a row where GRDB's text form
/// (`2026-11-21 19:12:03.000`) took 23, and need no date formatter on the write path (every check binds at least one
/// instant). `Date` itself never goes into SQL: GRDB binds it as that text, and reads an integer back as *seconds*,
/// so every time column is bound and read through this type (`Row.date(_:)`). Migration `v6-millisecond-dates`
/// converted the text of older databases.
struct StoredInstant: DatabaseValueConvertible, Comparable, Hashable, Sendable {
    /// Milliseconds between 1970-01-01 (UTC) and 2001-01-01, the reference date `Date` counts from.
    private static let referenceDateMilliseconds: Int64 = 978_307_200_000

    var milliseconds: Int64

    init(milliseconds: Int64) {
        self.milliseconds = milliseconds
    }

    /// `date` to the nearest millisecond, as GRDB's text form rounded it before.
    ///
    /// Counted from `Date`'s own reference date and shifted as an integer, so no second rounding creeps in through
    /// `timeIntervalSince1970`. The monitor's times are years from 1970's, far inside what an `Int64` holds.
    init(_ date: Date) {
        let sinceReference = Int64((date.timeIntervalSinceReferenceDate * 1000).rounded())
        milliseconds = sinceReference + Self.referenceDateMilliseconds
    }

    /// `date` to the nearest millisecond when an `Int64` holds it with room to spare (within about ±30,000 years of
    /// 2001), else nil. A time from outside (an origin's certificate, a CDN's `max-age` added to now) can be any
    /// `Double`, where `init(_:)` would trap; the daemon's own clock never is.
    init?(exactly date: Date) {
        guard abs(date.timeIntervalSinceReferenceDate) < 1e12 else { return nil }
        self.init(date)
    }

    /// The instant as a `Date`: the same millisecond that was stored, which prints as the same RFC 3339 second.
    var date: Date {
        Date(timeIntervalSinceReferenceDate: Double(milliseconds - Self.referenceDateMilliseconds) / 1000)
    }

    var databaseValue: DatabaseValue { milliseconds.databaseValue }

    /// Only an integer is an instant: text in a time column is a row no migration converted, not a time to guess.
    static func fromDatabaseValue(_ dbValue: DatabaseValue) -> StoredInstant? {
        guard case .int64(let milliseconds) = dbValue.storage else { return nil }
        return StoredInstant(milliseconds: milliseconds)
    }

    static func < (earlier: StoredInstant, later: StoredInstant) -> Bool {
        earlier.milliseconds < later.milliseconds
    }
}

extension Row {
    /// The instant stored in `column` (`StoredInstant`); like every non-optional read of a row, the column must hold
    /// one.
    func date(_ column: String) -> Date {
        (self[column] as StoredInstant).date
    }

    /// The instant stored in `column`, `nil` when it is NULL.
    func optionalDate(_ column: String) -> Date? {
        (self[column] as StoredInstant?)?.date
    }
}
