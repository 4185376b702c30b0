import AASA
import Foundation

/// Apple's CDN headers, parsed: the reason Apple gives for a missing copy and how old its cached copy is.
///
/// Every header comes from outside and may be garbage: nothing here throws, odd values are kept verbatim. Numbers
/// are clamped to what can be true: `Age` and `max-age` to one year (Apple caches for hours), non-finite JSON
/// numbers become their text; each such change is written to `notes`, so a hostile value never reaches a date
/// or an encoder (`max-age=999999999999` once gave an expiry in the year 33715, `1e999` broke JSON encoding).
struct CDNHeaders: Sendable, Hashable {
    /// The largest `Age` or `max-age` believed, in seconds: one year.
    static let maximumSeconds = 365 * 24 * 3600
    var failureReason: AppleFailureReason?
    var failureDetails: DetailValue?
    var from: [String]
    var tryDirect: String?
    var originFormat: String?
    var age: Int?
    var maxAge: Int?
    /// The headers kept for the report: every `Apple-*` plus the caching ones, names lower-cased.
    var kept: [String: String]
    /// What was clamped or dropped, in plain words, for the report.
    var notes: [String] = []

    private static let cachingHeaders: Set<String> = ["cache-control", "age", "x-cache", "via", "date", "expires"]

    init(_ response: FetchResponse) {
        var kept: [String: String] = [:]
        for field in response.headers {
            let name = field.name.lowercased()
            guard name.hasPrefix("apple-") || Self.cachingHeaders.contains(name) else { continue }
            kept[name] = kept[name].map { "\($0), \(field.value)" } ?? field.value
        }
        self.kept = kept
        failureReason = kept["apple-failure-reason"].map(Self.failureReason)
        if let details = kept["apple-failure-details"] {
            let parsed = Self.failureDetails(details)
            failureDetails = parsed.value
            if parsed.clamped > 0 {
                notes.append(
                    "Apple-Failure-Details holds \(parsed.clamped) number(s) beyond a double's range; "
                        + "they are kept as text")
            }
        }
        from =
            kept["apple-from"]?.split(separator: ",").map { $0.trimmingSpaces() }
            .filter { !$0.isEmpty } ?? []
        tryDirect = kept["apple-try-direct"]
        originFormat = kept["apple-origin-format"]
        if let raw = kept["age"] {
            age = clampedSeconds(raw.split(separator: ",").first.map(String.init) ?? "", name: "Age")
        }
        if let cacheControl = kept["cache-control"] {
            // `s-maxage` wins when it is a number; an unreadable one (noted) leaves `max-age` in force.
            let (shared, own) = Self.maxAges(cacheControl)
            maxAge =
                shared.flatMap { clampedSeconds($0, name: "Cache-Control s-maxage") }
                ?? own.flatMap { clampedSeconds($0, name: "Cache-Control max-age") }
        }
    }

    /// A count of seconds from a header: digits only, at most one year; anything else is dropped or clamped with
    /// a note.
    private mutating func clampedSeconds(_ raw: String, name: String) -> Int? {
        let digits = Self.unquoted(raw)
        guard !digits.isEmpty, digits.allSatisfy(\.isASCIIDigit) else {
            notes.append("\(name) \"\(digits.prefix(40))\" is not a number of seconds; ignored")
            return nil
        }
        let significant = digits.drop { $0 == "0" }
        guard significant.count <= 12, let value = Int(significant.isEmpty ? "0" : significant),
            value <= Self.maximumSeconds
        else {
            notes.append(
                "\(name) \(digits.prefix(40)) is more than a year; taken as one year (\(Self.maximumSeconds) s)")
            return Self.maximumSeconds
        }
        return value
    }

    /// `SWCERR00101 Bad HTTP Response: 403 Forbidden` → code `SWCERR00101`, text `Bad HTTP Response: 403 Forbidden`.
    static func failureReason(_ raw: String) -> AppleFailureReason {
        let trimmed = raw.trimmingCharacters(in: .whitespaces)
        let first = trimmed.prefix(while: { !$0.isWhitespace })
        if first.hasPrefix("SWCERR"), first.dropFirst(6).allSatisfy(\.isNumber), first.count > 6 {
            let text = trimmed.dropFirst(first.count).trimmingCharacters(in: .whitespaces)
            return AppleFailureReason(code: String(first), text: text, raw: raw)
        }
        return AppleFailureReason(code: nil, text: trimmed, raw: raw)
    }

    /// The JSON of `Apple-Failure-Details`, or its text verbatim when it is not JSON; `clamped` counts the numbers
    /// kept as text because no finite double holds them.
    static func failureDetails(_ raw: String) -> (value: DetailValue, clamped: Int) {
        guard let value = try? JSONParser(maximumDepth: 32).parse(Array(raw.utf8)) else { return (.string(raw), 0) }
        var clamped = 0
        let detail = DetailValue(json: value, clamped: &clamped)
        return (detail, clamped)
    }

    /// The raw `s-maxage` (which shared caches prefer) and `max-age` of `Cache-Control`, unquoted and lower-cased.
    static func maxAges(_ cacheControl: String) -> (shared: String?, own: String?) {
        var maxAge: String?
        var sharedMaxAge: String?
        for directive in cacheControl.split(separator: ",") {
            // A directive without a value (`max-age=` and nothing) is skipped, as if it were absent.
            guard let equals = directive.firstIndex(of: "="), directive.index(after: equals) < directive.endIndex
            else { continue }
            let name = directive[..<equals].trimmingSpaces().lowercased()
            guard name == "max-age" || name == "s-maxage" else { continue }
            let value = unquoted(directive[directive.index(after: equals)...]).lowercased()
            if name == "max-age" { maxAge = value } else { sharedMaxAge = value }
        }
        return (sharedMaxAge, maxAge)
    }

    /// A header value without surrounding blanks (HTTP's optional white space) and double quotes.
    static func unquoted(_ raw: some StringProtocol) -> String {
        var value = Substring(raw.trimmingSpaces())
        while value.first == "\"" { value.removeFirst() }
        while value.last == "\"" { value.removeLast() }
        return String(value)
    }

}

extension DetailValue {
    /// A JSON value of the AASA core as detail; a repeated key keeps its last value, as Foundation would. A number
    /// no finite double holds (`1e999`) is kept as its text and counted in `clamped`: JSON has no infinity.
    init(json: JSONValue, clamped: inout Int) {
        switch json {
        case .null: self = .null
        case .bool(let value): self = .bool(value)
        case .number(let text):
            if let integer = Int(text) {
                self = .int(integer)
            } else if let double = Double(text), double.isFinite {
                self = .double(double)
            } else {
                clamped += 1
                self = .string(text)
            }
        case .string(let value): self = .string(value)
        case .array(let values): self = .array(values.map { DetailValue(json: $0, clamped: &clamped) })
        case .object(let members):
            var object: [String: DetailValue] = [:]
            for member in members { object[member.key] = DetailValue(json: member.value, clamped: &clamped) }
            self = .object(object)
        }
    }
}
