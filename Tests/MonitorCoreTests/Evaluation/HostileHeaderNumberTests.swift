import AASA
import Foundation
import MonitorCore
import MonitorEvaluation
import Testing

/// Numbers from Apple's headers at their extremes never reach a date or an encoder unclamped.
@Suite("Hostile numbers in CDN headers")
struct HostileHeaderNumberTests {
    typealias F = ObservationFixtures

    @Test("infinite detail values encode as null rather than throwing")
    func infiniteDetailEncodes() throws {
        let detail: FindingDetail = ["b": .double(.infinity), "n": .double(-.infinity), "x": .double(.nan)]
        let json = String(decoding: try JSONEncoder().encode(detail), as: UTF8.self)
        #expect(json.contains(#""b":null"#) && json.contains(#""n":null"#) && json.contains(#""x":null"#))
    }

    @Test("max-age beyond a year gives an expected refresh at most a year away, with a note")
    func hugeMaxAge() throws {
        let headers = [
            HeaderField(name: "Cache-Control", value: "max-age=999999999999"), HeaderField(name: "Age", value: "5"),
        ]
        let report = F.evaluate(F.observation(cdn: F.json(F.olderDocument, headers: headers)))
        let cdn = try #require(report.cdn)
        #expect(cdn.maxAge == 31_536_000)
        #expect(cdn.expectedRefresh == F.now.addingTimeInterval(31_536_000 - 5))
        #expect(cdn.notes?.count == 1)
        _ = try JSONEncoder().encode(report)
    }

    @Test("a directive with nothing after = is skipped; blanks and quotes around a value are not part of it")
    func emptyAndQuotedDirectives() throws {
        for (value, expected) in [
            ("max-age=300, max-age=", 300), ("s-maxage=, max-age=300", 300), (#" Max-Age = "120" "#, 120),
            ("no-cache, max-age=\t60\t", 60),
        ] {
            let report = F.evaluate(
                F.observation(cdn: F.json(F.olderDocument, headers: [HeaderField(name: "Cache-Control", value: value)]))
            )
            let cdn = try #require(report.cdn)
            #expect(cdn.maxAge == expected, "Cache-Control: \(value)")
            #expect(cdn.notes == nil, "Cache-Control: \(value)")
        }
    }

    @Test("an unreadable s-maxage is noted and leaves max-age in force")
    func unreadableSharedMaxAge() throws {
        let headers = [HeaderField(name: "Cache-Control", value: "s-maxage=abc, max-age=300")]
        let report = F.evaluate(F.observation(cdn: F.json(F.olderDocument, headers: headers)))
        let cdn = try #require(report.cdn)
        #expect(cdn.maxAge == 300)
        #expect(cdn.notes == [#"Cache-Control s-maxage "abc" is not a number of seconds; ignored"#])
        let shared = F.evaluate(
            F.observation(
                cdn: F.json(
                    F.olderDocument, headers: [HeaderField(name: "Cache-Control", value: "max-age=300, s-maxage=60")])))
        #expect(shared.cdn?.maxAge == 60)
    }
}
