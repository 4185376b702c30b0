import Foundation
import MonitorCore
import MonitorEvaluation
import Testing

/// Issue 32 §7: times a person would not mean are refused, each with its reason.
@Suite("RFC 3339 times")
struct RFC3339Tests {
    @Test(
        "valid times read exactly, offsets and fractions included",
        arguments: [
            ("2026-11-21T19:12:03Z", 1_795_288_323.0), ("2026-11-21t19:12:03z", 1_795_288_323.0),
            ("2026-11-21T21:12:03+02:00", 1_795_288_323.0), ("2026-11-21T14:42:03-04:30", 1_795_288_323.0),
            ("2026-11-21T19:12:03.5Z", 1_795_288_323.5), ("1970-01-01T00:00:00Z", 0),
            ("2028-02-29T00:00:00Z", 1_835_395_200), ("2000-02-29T00:00:00Z", 951_782_400),
        ])
    func valid(text: String, seconds: Double) throws {
        #expect(try RFC3339.parse(text).timeIntervalSince1970 == seconds)
    }

    @Test("a written time reads back as the same instant")
    func roundTrip() throws {
        let date = Date(timeIntervalSince1970: 1_795_288_323)
        #expect(try RFC3339.parse(RFC3339.string(date)) == date)
    }

    @Test(
        "impossible dates, hours, minutes, leap seconds and malformed text are refused with the reason",
        arguments: [
            ("2026-02-30T00:00:00Z", "month 2 of 2026 has 28 days, not 30"),
            ("2026-02-29T00:00:00Z", "month 2 of 2026 has 28 days, not 29"),
            ("1900-02-29T00:00:00Z", "month 2 of 1900 has 28 days, not 29"),
            ("2026-04-31T00:00:00Z", "month 4 of 2026 has 30 days, not 31"),
            ("2026-13-01T00:00:00Z", "there is no month 13"), ("2026-00-10T00:00:00Z", "there is no month 0"),
            ("2026-01-00T00:00:00Z", "has 31 days, not 0"), ("2026-01-01T24:00:00Z", "the hour is 00 to 23"),
            ("2026-01-01T23:60:00Z", "the minute is 00 to 59"),
            ("2026-12-31T23:59:60Z", "leap seconds are not accepted"),
            ("2026-01-01T00:00:00", "expected Z or an offset"), ("2026-01-01T00:00:00+2:00", "expected Z or an offset"),
            ("2026-01-01T00:00:00+24:00", "the offset is at most 23:59"),
            ("2026-01-01T00:00:00.Z", "expected digits after the decimal point"),
            ("2026-01-01 00:00:00Z", "expected a time like"), ("tomorrow", "expected a time like"),
            ("", "expected a time like"), ("2026-01-01T00:00:00Zjunk", "expected Z or an offset"),
        ])
    func refused(text: String, reason: String) {
        #expect(throws: RFC3339Error.self) { try RFC3339.parse(text) }
        do {
            _ = try RFC3339.parse(text)
        } catch {
            #expect(error.description.contains(reason), "\(text): \(error.description)")
        }
    }
}
