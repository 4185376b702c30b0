import EndToEndSlot
import Foundation
import MonitorDaemon
import TestSupport
import Testing

/// Every number in Apple's headers at its extremes, through the real binary: `check --json` stays valid JSON,
/// each value is clamped or dropped with a note, and no date lands centuries away.
@Suite("check hostile numbers", .timeLimit(.minutes(10)), .endToEndSlot)
struct CheckHostileNumbersTests {
    static let oneYear = 365 * 24 * 3600

    static func cdnObject(_ output: String) throws -> [String: Any] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        let domain = try #require((object["domains"] as? [[String: Any]])?.first)
        return try #require(domain["cdn"] as? [String: Any])
    }

    @Test("1e999 in Apple-Failure-Details, max-age and Age beyond a year: clamped, noted, encodable")
    func hugeValues() async throws {
        try await CheckScenarios.with(cdnDomains: ["huge.origin.test"]) { scenarios in
            let run = try await MonitorBinary.run(["check", "huge.origin.test", "--json"] + scenarios.commandOptions)
            #expect(!run.error.contains("EncodingError"), "\(run.error)")
            let cdn = try Self.cdnObject(run.output)
            #expect(cdn["max_age"] as? Int == Self.oneYear)
            #expect(cdn["age"] as? Int == Self.oneYear)
            let details = try #require(cdn["apple_failure_details"] as? [String: Any])
            #expect(details["b"] as? String == "1e999")
            #expect(details["n"] as? String == "-1e999")
            #expect(details["t"] as? Double == 0)
            let refresh = try #require(cdn["expected_refresh"] as? String)
            let date = try #require(ISO8601DateFormatter().date(from: refresh))
            #expect(date <= Date().addingTimeInterval(Double(Self.oneYear) + 86_400), "\(refresh)")
            let notes = try #require(cdn["notes"] as? [String])
            #expect(notes.contains { $0.contains("Apple-Failure-Details holds 2 number(s)") }, "\(notes)")
            #expect(notes.contains { $0.hasPrefix("Cache-Control max-age 999999999999 is more than a year") })
            #expect(notes.contains { $0.hasPrefix("Age 99999999999999999999999 is more than a year") })

            let text = try await MonitorBinary.run(["check", "huge.origin.test"] + scenarios.commandOptions)
            #expect(text.output.contains("  note: Cache-Control max-age 999999999999 is more than a year"))
        }
    }

    @Test("negative, NaN and exponent values of Age and max-age are dropped with a note")
    func garbageValues() async throws {
        try await CheckScenarios.with(cdnDomains: ["garbage.origin.test"]) { scenarios in
            let run = try await MonitorBinary.run(
                ["check", "garbage.origin.test", "--json"] + scenarios.commandOptions)
            #expect(run.status == 0, "\(run.output)\(run.error)")
            let cdn = try Self.cdnObject(run.output)
            #expect(cdn["max_age"] == nil || cdn["max_age"] is NSNull)
            #expect(cdn["age"] == nil || cdn["age"] is NSNull)
            #expect(cdn["expected_refresh"] == nil || cdn["expected_refresh"] is NSNull)
            let notes = try #require(cdn["notes"] as? [String])
            #expect(notes.contains(#"Age "1e999" is not a number of seconds; ignored"#), "\(notes)")
            // Both are unreadable: s-maxage is tried first, then max-age, and each is noted.
            #expect(notes.contains(#"Cache-Control s-maxage "nan" is not a number of seconds; ignored"#), "\(notes)")
            #expect(notes.contains(#"Cache-Control max-age "-5" is not a number of seconds; ignored"#), "\(notes)")
        }
    }
}
