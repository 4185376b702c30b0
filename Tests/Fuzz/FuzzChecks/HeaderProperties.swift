import Foundation
import HTTPEngine
import MonitorEvaluation

/// Response headers (issue 26 §2): the engine's header-line reader, then the evaluation of the origin's and
/// Apple's CDN headers (`Age`, `Cache-Control`, `Expires`, `Apple-Failure-*`, `Apple-From`, `Content-Type`).
///
/// The input is a status choice, a body choice, then the origin's header lines and, after a NUL byte, the CDN's,
/// each split at line feeds as libcurl hands them over. The reader's fields have a name without `:` or a line
/// feed (a bare CR is the server's business, as libcurl passes it), values without surrounding blanks or line feeds, and every field is found again by name. The report
/// of a check that saw them encodes to JSON and decodes back, its ages lie between zero and one year, and its
/// dates within a year of the check.
enum HeaderProperties {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let statuses = [200, 200, 304, 404, 301, 503, 0, 999]
    static let bodies = [
        #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.app"],"components":[{"/":"/buy/*"}]}]}}"#,
        #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.app"],"paths":["*"]}]}}"#,
        "<html>not json</html>", "",
    ]

    static func check(_ bytes: [UInt8]) throws(PropertyViolation) {
        var input = FuzzInput(bytes)
        let status = statuses[input.choose(statuses.count)]
        let originBody = Array(bodies[input.choose(bodies.count)].utf8)
        let cdnBody = Array(bodies[input.choose(bodies.count)].utf8)
        let parts = input.rest().split(separator: 0, maxSplits: 1, omittingEmptySubsequences: false)
        let origin = try headers(Array(parts[0]))
        let cdn = try headers(parts.count > 1 ? Array(parts[1]) : [])
        let observation = DomainObservation(
            domain: "example.com", startedAt: now, finishedAt: now,
            wellKnown: fetch(
                "https://example.com/.well-known/apple-app-site-association", status: status, origin, originBody),
            wellKnownPlain: nil, root: nil,
            cdn: fetch("https://app-site-association.cdn-apple.com/a/v1/example.com", status: 200, cdn, cdnBody))
        let report = DomainEvaluator.evaluate(observation, now: now)
        try checkReport(report)
    }

    /// The fields the engine's reader makes of `bytes`, checked.
    private static func headers(_ bytes: [UInt8]) throws(PropertyViolation) -> [HeaderField] {
        var reader = HeaderLineReader()
        var start = 0
        while start < bytes.count {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? bytes.count
            reader.read(String(decoding: bytes[start..<end], as: UTF8.self))
            start = end
        }
        let blanks: Set<Character> = [" ", "\t"]
        for field in reader.headers {
            try PropertyViolation.require(
                !field.name.contains(":") && !field.name.unicodeScalars.contains("\n"),
                "a header name with a colon or a line feed: \(field.name.debugDescription)")
            try PropertyViolation.require(
                !field.value.unicodeScalars.contains("\n"),
                "a header value with a line feed: \(field.value.debugDescription)")
            try PropertyViolation.require(
                field.value.first.map { !blanks.contains($0) } ?? true
                    && field.value.last.map { !blanks.contains($0) } ?? true,
                "a header value with surrounding blanks: \(field.value.debugDescription)")
            try PropertyViolation.require(
                reader.headers.contains(field.name) && reader.headers[field.name].contains(field.value),
                "the field \(field.name.debugDescription) is not found by its name")
        }
        return reader.headers.map { HeaderField(name: $0.name, value: $0.value) }
    }

    private static func fetch(
        _ url: String, status: Int, _ headers: [HeaderField], _ body: [UInt8]
    ) -> FetchObservation {
        FetchObservation(
            url: url, userAgent: "aasa-monitor-fuzz",
            outcome: .response(FetchResponse(status: status, headers: headers, body: body, httpVersion: "2")),
            totalSeconds: 0.1)
    }

    private static func checkReport(_ report: DomainReport) throws(PropertyViolation) {
        let year = 365.0 * 24 * 3600
        if let cdn = report.cdn {
            for (name, seconds) in [("Age", cdn.age), ("max-age", cdn.maxAge)] {
                guard let seconds else { continue }
                try PropertyViolation.require(
                    seconds >= 0 && Double(seconds) <= year, "\(name) \(seconds) s is outside zero to a year")
            }
            for (name, date) in [("expected refresh", cdn.expectedRefresh), ("expiry", cdn.expiresAt)] {
                guard let date else { continue }
                try PropertyViolation.require(
                    abs(date.timeIntervalSince(now)) <= year + 1, "the \(name) \(date) is over a year from the check")
            }
        }
        do {
            let encoded = try MonitorJSON.encoder().encode(report)
            _ = try MonitorJSON.decoder().decode(DomainReport.self, from: encoded)
        } catch {
            throw PropertyViolation("the report does not survive JSON: \(error)")
        }
    }
}
