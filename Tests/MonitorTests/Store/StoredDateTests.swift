import Foundation
import GRDB
import Testing

@testable import Monitor

/// `StoredDate` writes GRDB's date text without GRDB's formatter; the two must agree to the character, or a column
/// written both ways would compare and sort wrongly.
@Suite("Stored dates")
struct StoredDateTests {
    @Test("agrees with GRDB's formatter, fractions and calendar edges included")
    func agreesWithGRDB() {
        var generator = SystemRandomNumberGenerator()
        var dates: [Date] = [
            Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: -0.001), Date(timeIntervalSince1970: 0.9999),
            Date(timeIntervalSince1970: 951_782_400),  // 2000-02-29
            Date(timeIntervalSince1970: 4_107_542_399.999),  // 2100-02-28 23:59:59.999
            Date(timeIntervalSince1970: -62_135_596_800),  // 0001-01-01: GRDB's own formatter
            Date(timeIntervalSince1970: 0.0005), Date(timeIntervalSince1970: 1.0015),
            Date(timeIntervalSince1970: 253_402_300_799.999),  // 9999-12-31 23:59:59.999
            Date(timeIntervalSince1970: 1_795_441_267.6142027),
        ]
        for _ in 0..<5_000 {
            dates.append(Date(timeIntervalSince1970: Double.random(in: 0...1e10, using: &generator)))
            dates.append(
                Date(timeIntervalSince1970: Double(Int.random(in: 0...4_000_000_000, using: &generator)) / 1000))
        }
        var differing: [String] = []
        for date in dates where StoredDate.value(date) != date.databaseValue {
            differing.append("\(date.timeIntervalSince1970): \(StoredDate.value(date)) vs \(date.databaseValue)")
        }
        #expect(differing.count == 0, "\(differing.count) of \(dates.count) differ, e.g. \(differing.prefix(3))")
    }

    @Test("reads back through GRDB as the same millisecond")
    func readsBack() throws {
        let date = Date(timeIntervalSince1970: 1_795_441_267.614)
        let read = try #require(Date.fromDatabaseValue(StoredDate.value(date)))
        #expect(abs(read.timeIntervalSince1970 - date.timeIntervalSince1970) < 0.0005)
    }
}
