import Foundation
import MonitorEvaluation
import Testing

/// `HTTPDate` is parsed by hand (see its note); Foundation's `DateFormatter` is the oracle it must agree with.
@Suite("HTTP-dates in their three forms")
struct HTTPDateTests {
    static func formatter(_ format: String) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = format
        return formatter
    }

    /// Instants spread over 1970–2069 (leap days, month ends and midnight included by the step).
    static let instants: [Date] = stride(from: 0.0, to: 3_155_760_000, by: 7_776_061).map {
        Date(timeIntervalSince1970: $0)
    }

    @Test(
        "every form written by DateFormatter reads back as the same instant",
        arguments: [
            "EEE, dd MMM yyyy HH:mm:ss 'GMT'", "EEEE, dd-MMM-yy HH:mm:ss 'GMT'", "EEE MMM d HH:mm:ss yyyy",
        ])
    func agreesWithFoundation(format: String) throws {
        let writer = Self.formatter(format)
        for instant in Self.instants {
            var text = writer.string(from: instant)
            // asctime pads a one-digit day with a space.
            if format.hasPrefix("EEE MMM"), text.split(separator: " ")[2].count == 1 {
                text = text.replacingOccurrences(
                    of: " \(text.split(separator: " ")[2]) ", with: "  \(text.split(separator: " ")[2]) ")
            }
            #expect(HTTPDate.parse(text) == instant, "\(text)")
        }
    }

    @Test("RFC 9110's own examples")
    func specExamples() {
        let expected = Date(timeIntervalSince1970: 784_111_777)
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == expected)
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT") == expected)
        #expect(HTTPDate.parse("Sun Nov  6 08:49:37 1994") == expected)
        #expect(HTTPDate.parse("Tue, 29 Feb 2028 23:59:59 GMT") == Date(timeIntervalSince1970: 1_835_481_599))
    }

    @Test(
        "what is not an HTTP-date is nil",
        arguments: [
            "", "Sun, 06 Nov 1994 08:49:37", "Sun, 06 Nov 1994 08:49:37 GMT ", "sun, 06 Nov 1994 08:49:37 GMT",
            "Sun, 6 Nov 1994 08:49:37 GMT", "Sun, 31 Feb 2024 08:49:37 GMT", "Sun, 29 Feb 2023 08:49:37 GMT",
            "Sun, 06 Nov 1994 24:00:00 GMT", "Sun, 06 Nov 1994 08:60:00 GMT", "Sun, 06 Foo 1994 08:49:37 GMT",
            "Sun, 00 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 08:49:37 PST", "1994-11-06T08:49:37Z",
            "Sun, ０6 Nov 1994 08:49:37 GMT",
        ])
    func rejects(text: String) {
        #expect(HTTPDate.parse(text) == nil)
    }
}
