/// The keys Apple reads at each level of a document, and "did you mean" suggestions for the rest.
///
/// Apple ignores unknown keys without a word (`"casesensitive": false` simply has no effect), so the most useful
/// thing a linter can say is which known key was probably meant.
enum KnownKeys {
    static let services = ["applinks", "webcredentials", "appclips", "activitycontinuation"]
    static let appLinks = ["apps", "details", "defaults", "substitutionVariables"]
    static let appList = ["apps"]
    static let entry = ["appID", "appIDs", "paths", "components", "defaults"]
    static let component = ["/", "?", "#", "exclude", "caseSensitive", "percentEncoded", "comment"]

    /// Words people use for the punctuation keys of a component.
    private static let aliases: [String: String] = [
        "path": "/", "query": "?", "fragment": "#", "hash": "#", "excluded": "exclude",
    ]

    /// The known key `key` most probably meant: same letters in another case, a known alias, or at most two
    /// edits away (one for short keys, so `app` is not "corrected" to `apps` by accident in unrelated data).
    static func suggestion(for key: String, among known: [String]) -> String? {
        let lowered = key.lowercased()
        if let match = known.first(where: { $0.lowercased() == lowered }) { return match }
        if let alias = aliases[lowered], known.contains(alias) { return alias }
        let trimmed = key.trimmingSpaces()
        if trimmed != key, known.contains(trimmed) { return trimmed }
        let limit = key.count <= 4 ? 1 : 2
        var best: (key: String, distance: Int)?
        for candidate in known where candidate.count > 1 {
            let distance = editDistance(lowered, candidate.lowercased(), limit: limit)
            if distance <= limit, distance < (best?.distance ?? .max) { best = (candidate, distance) }
        }
        return best?.key
    }

    /// Levenshtein distance with an early exit once every path exceeds `limit`.
    static func editDistance(_ lhs: String, _ rhs: String, limit: Int) -> Int {
        let left = Array(lhs.unicodeScalars)
        let right = Array(rhs.unicodeScalars)
        if abs(left.count - right.count) > limit { return limit + 1 }
        var previous = Array(0...right.count)
        for (leftIndex, leftScalar) in left.enumerated() {
            var current = [leftIndex + 1] + Array(repeating: 0, count: right.count)
            for (rightIndex, rightScalar) in right.enumerated() {
                let substitution = previous[rightIndex] + (leftScalar == rightScalar ? 0 : 1)
                current[rightIndex + 1] = min(substitution, previous[rightIndex + 1] + 1, current[rightIndex] + 1)
            }
            if current.min() ?? 0 > limit { return limit + 1 }
            previous = current
        }
        return previous[right.count]
    }
}

extension StringProtocol {
    /// The string without leading and trailing ASCII spaces, tabs and line breaks (Foundation-free, and much
    /// cheaper than `trimmingCharacters(in:)`, whose CharacterSet lookups showed in per-check profiles).
    public func trimmingSpaces() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let start = firstIndex(where: { !isSpace($0) }), let end = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[start...end])
    }
}
