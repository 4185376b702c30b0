import Foundation
import MonitorCore
import MonitorEvaluation
import Testing

@Suite("Maintenance windows: recurring silences in a time zone, DST included")
struct MaintenanceWindowTests {
    static let berlin = TimeZone(identifier: "Europe/Berlin")!

    /// `2026-03-29T01:30:00Z` and the like.
    static func utc(_ text: String) -> Date {
        try! Date(text, strategy: .iso8601)
    }

    static func window(
        days: Set<MaintenanceWindow.Day> = [], start: String, duration: Duration, zone: TimeZone = berlin
    ) -> MaintenanceWindow {
        let parts = start.split(separator: ":").compactMap { Int($0) }
        return MaintenanceWindow(
            name: "deploy", days: days, startMinute: parts[0] * 60 + parts[1], duration: duration, timeZone: zone)
    }

    @Test(
        "a Monday 23:00 Berlin window of 2 h is open from 22:00Z (winter) until midnight UTC, and only then",
        arguments: [
            ("2026-01-05T21:59:59Z", false), ("2026-01-05T22:00:00Z", true), ("2026-01-05T23:59:59Z", true),
            ("2026-01-06T00:00:00Z", false), ("2026-01-06T22:30:00Z", false), ("2026-01-12T22:30:00Z", true),
        ])
    func weekly(time: String, open: Bool) {
        let window = Self.window(days: [.monday], start: "23:00", duration: .seconds(7_200))
        #expect((window.silence(at: Self.utc(time)) != nil) == open)
    }

    @Test("in summer the same window opens at 21:00Z: the start is Berlin's wall clock")
    func summer() {
        let window = Self.window(days: [.monday], start: "23:00", duration: .seconds(7_200))
        #expect(window.silence(at: Self.utc("2026-07-06T21:00:00Z"))?.startsAt == Self.utc("2026-07-06T21:00:00Z"))
        #expect(window.silence(at: Self.utc("2026-07-06T20:59:00Z")) == nil)
    }

    @Test("a window across the spring change lasts its duration of real time")
    func springForward() throws {
        // 2026-03-29: Berlin jumps from 02:00 CET to 03:00 CEST (01:00Z).
        let window = Self.window(days: [.sunday], start: "01:30", duration: .seconds(3_600))
        let silence = try #require(window.silence(at: Self.utc("2026-03-29T00:45:00Z")))
        #expect(silence.startsAt == Self.utc("2026-03-29T00:30:00Z"))
        #expect(silence.endsAt == Self.utc("2026-03-29T01:30:00Z"))
    }

    @Test("a start inside the skipped hour opens after the gap")
    func skippedStart() throws {
        let window = Self.window(days: [.sunday], start: "02:30", duration: .seconds(3_600))
        let silence = try #require(window.silence(at: Self.utc("2026-03-29T01:45:00Z")))
        #expect(silence.startsAt >= Self.utc("2026-03-29T01:00:00Z"))
        #expect(silence.startsAt <= Self.utc("2026-03-29T01:30:00Z"))
        #expect(window.silence(at: Self.utc("2026-03-29T00:59:00Z")) == nil)
    }

    @Test("a start inside the repeated autumn hour opens at the first of them")
    func repeatedStart() throws {
        // 2026-10-25: Berlin goes back from 03:00 CEST to 02:00 CET (01:00Z); 02:30 happens at 00:30Z and 01:30Z.
        let window = Self.window(days: [.sunday], start: "02:30", duration: .seconds(1_800))
        let silence = try #require(window.silence(at: Self.utc("2026-10-25T00:40:00Z")))
        #expect(silence.startsAt == Self.utc("2026-10-25T00:30:00Z"))
        #expect(window.silence(at: Self.utc("2026-10-25T01:40:00Z")) == nil)
    }

    @Test("every day when no days are listed; a window past midnight belongs to the day it started")
    func everyDayAndPastMidnight() {
        let daily = Self.window(start: "12:00", duration: .seconds(600), zone: TimeZone(identifier: "UTC")!)
        #expect(daily.silence(at: Self.utc("2026-05-13T12:05:00Z")) != nil)
        #expect(daily.silence(at: Self.utc("2026-05-16T12:05:00Z")) != nil)
        let friday = Self.window(
            days: [.friday], start: "22:00", duration: .seconds(14_400), zone: TimeZone(identifier: "UTC")!)
        #expect(friday.silence(at: Self.utc("2026-05-16T01:00:00Z")) != nil)  // Saturday 01:00
        #expect(friday.silence(at: Self.utc("2026-05-17T01:00:00Z")) == nil)
    }

    @Test("an open window silences like a stored one, named after the window")
    func actsAsSilence() throws {
        var window = Self.window(start: "00:00", duration: .seconds(86_400))
        window.domains = ["example.com"]
        let silence = try #require(window.silence(at: Self.utc("2026-05-13T12:00:00Z")))
        #expect(silence.id == "maintenance:deploy")
        #expect(silence.covers(domain: "example.com"))
        #expect(!silence.covers(domain: "example.org"))
        #expect(silence.text.hasSuffix("by configuration: maintenance window deploy"))
    }
}
