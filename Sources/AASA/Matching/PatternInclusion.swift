/// Sound but incomplete inclusion checks between glob patterns: `true` only when every text the second pattern
/// matches is certainly matched by the first.
enum PatternInclusion {
    static func matchesEverything(_ pattern: String) -> Bool {
        GlobPattern(pattern).matchesEverything
    }

    /// A path pattern matches every path when, after its leading slashes, it is only `*` (paths start with `/`).
    static func pathMatchesEverything(_ pattern: String) -> Bool {
        let body = pattern.drop(while: { $0 == "/" })
        return body.isEmpty ? false : body.allSatisfy { $0 == "*" }
    }

    static func queryMatchesEverything(_ query: QueryRule) -> Bool {
        switch query {
        case .disregarded: true
        case .string(let pattern): matchesEverything(pattern)
        // An absent item is matched as "", so a dictionary of `*` patterns accepts every query.
        case .items(let items): items.allSatisfy { matchesEverything($0.pattern) }
        }
    }

    static func glob(_ first: String, covers second: String) -> Bool {
        if matchesEverything(first) || first == second { return true }
        guard first.hasSuffix("*") else { return false }
        let prefix = first.dropLast()
        return isLiteral(prefix) && second.hasPrefix(prefix)
    }

    /// Path inclusion after the pattern normalization of rules P2–P4.
    static func path(_ first: String, covers second: String) -> Bool {
        if pathMatchesEverything(first) { return true }
        let mine = normalized(first)
        let theirs = normalized(second)
        if glob(mine, covers: theirs) { return true }
        // `/dir/*` also matches `/dir` itself (P4).
        return mine.hasSuffix("/*") && isLiteral(mine.dropLast(2)) && theirs == String(mine.dropLast(2))
    }

    static func query(_ first: QueryRule, covers second: QueryRule) -> Bool {
        if queryMatchesEverything(first) { return true }
        switch (first, second) {
        case (.string(let mine), .string(let theirs)):
            return glob(mine, covers: theirs)
        case (.items(let mine), .items(let theirs)):
            return mine.allSatisfy { item in
                let matching = theirs.filter { $0.name == item.name }
                return !matching.isEmpty && matching.allSatisfy { glob(item.pattern, covers: $0.pattern) }
            }
        default:
            return false
        }
    }

    /// A path pattern as P2–P3 read it: exactly one leading `/` and every trailing `/` dropped (what remains of
    /// `/` or `//` is `/`).
    static func normalized(_ pattern: String) -> String {
        var text = "/" + pattern.drop(while: { $0 == "/" })
        while text.count > 1 && text.hasSuffix("/") { text.removeLast() }
        return text
    }

    static func isLiteral(_ text: Substring) -> Bool {
        !text.contains("*") && !text.contains("?") && !text.contains("$(") && !text.hasSuffix("$")
    }
}
