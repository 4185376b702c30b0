import AASA
import Foundation

/// Apple's CDN headers, parsed: the reason Apple gives for a missing copy and how old its cached copy is.
///
/// Every header comes from outside and may be garbage: nothing here throws, odd values are kept verbatim.
struct CDNHeaders: Sendable, Hashable {
    var failureReason: AppleFailureReason?
    var failureDetails: DetailValue?
    var from: [String]
    var tryDirect: String?
    var originFormat: String?
    var age: Int?
    var maxAge: Int?
    /// The headers kept for the report: every `Apple-*` plus the caching ones, names lower-cased.
    var kept: [String: String]

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
        failureDetails = kept["apple-failure-details"].map(Self.failureDetails)
        from =
            kept["apple-from"]?.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty } ?? []
        tryDirect = kept["apple-try-direct"]
        originFormat = kept["apple-origin-format"]
        age = kept["age"].flatMap { Self.nonNegativeInteger($0.split(separator: ",").first.map(String.init) ?? "") }
        maxAge = kept["cache-control"].flatMap(Self.maxAge)
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

    /// The JSON of `Apple-Failure-Details`, or its text verbatim when it is not JSON.
    static func failureDetails(_ raw: String) -> DetailValue {
        guard let value = try? JSONParser(maximumDepth: 32).parse(Array(raw.utf8)) else { return .string(raw) }
        return DetailValue(json: value)
    }

    /// `max-age` (or `s-maxage`, which shared caches prefer) from `Cache-Control`.
    static func maxAge(_ cacheControl: String) -> Int? {
        var maxAge: Int?
        var sharedMaxAge: Int?
        for directive in cacheControl.split(separator: ",") {
            let parts = directive.split(separator: "=", maxSplits: 1).map {
                $0.trimmingCharacters(in: .whitespaces).lowercased()
            }
            guard parts.count == 2 else { continue }
            let value = nonNegativeInteger(parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")))
            if parts[0] == "max-age" { maxAge = value }
            if parts[0] == "s-maxage" { sharedMaxAge = value }
        }
        return sharedMaxAge ?? maxAge
    }

    private static func nonNegativeInteger(_ text: String) -> Int? {
        let digits = text.trimmingCharacters(in: .whitespaces)
        guard !digits.isEmpty, digits.count <= 12, digits.allSatisfy(\.isASCIIDigit) else { return nil }
        return Int(digits)
    }
}

extension DetailValue {
    /// A JSON value of the AASA core as detail; a repeated key keeps its last value, as Foundation would.
    init(json: JSONValue) {
        switch json {
        case .null: self = .null
        case .bool(let value): self = .bool(value)
        case .number(let text):
            self = Int(text).map(DetailValue.int) ?? Double(text).map(DetailValue.double) ?? .string(text)
        case .string(let value): self = .string(value)
        case .array(let values): self = .array(values.map(DetailValue.init(json:)))
        case .object(let members):
            var object: [String: DetailValue] = [:]
            for member in members { object[member.key] = DetailValue(json: member.value) }
            self = .object(object)
        }
    }
}
