/// A plain backtracking matcher of Apple's URL rules, written for the fuzz target to check the compiled one
/// against: memoized, but with nothing of the compiled matcher's indexing, filters or automata.
///
/// It follows the path rules P1–P6 as `URLMatcher` documents them, by the most literal reading: the pattern's
/// leading `/`s become one and its trailing `/`s are dropped; the URL's trailing `/`s are dropped and an empty
/// path is `/`; a pattern ending in `/*` also matches without that tail; `*`, `?` and `$(name)` (any one value of
/// the variable, itself a glob) are tried every way; `caseSensitive: false` lowers both sides.
struct ReferenceMatcher {
    /// One rule: path, query and fragment patterns (`nil` for absent, which matches everything).
    struct Rule {
        var path: String?
        var query: String?
        var fragment: String?
        var exclude: Bool
        var caseSensitive: Bool
    }

    var rules: [Rule]
    var variables: [String: [String]]

    /// `match`, `exclude` or `noMatch` for a URL's path, query and fragment, as the first matching rule says.
    func decide(path: String, query: String?, fragment: String?) -> String {
        for rule in rules where matches(rule, path: path, query: query, fragment: fragment) {
            return rule.exclude ? "exclude" : "match"
        }
        return "noMatch"
    }

    private func matches(_ rule: Rule, path: String, query: String?, fragment: String?) -> Bool {
        let fold = !rule.caseSensitive
        var urlPath = Array(path.unicodeScalars)
        if urlPath.isEmpty { urlPath = ["/"] }
        while urlPath.count > 1 && urlPath.last == "/" { urlPath.removeLast() }
        if let pattern = rule.path {
            var elements = Self.elements("/" + pattern.drop { $0 == "/" }, variables: true)
            while elements.count > 1 && elements.last == .literal("/") { elements.removeLast() }
            let tail = elements.count >= 2 && elements.last == .anyRun && elements[elements.count - 2] == .literal("/")
            guard
                glob(elements[...], urlPath[...], fold: fold)
                    || (tail && glob(elements.dropLast(2), urlPath[...], fold: fold))
            else { return false }
        }
        for (pattern, text) in [(rule.query, query), (rule.fragment, fragment)] {
            guard let pattern else { continue }
            let elements = Self.elements(pattern, variables: true)
            if !elements.isEmpty && elements.allSatisfy({ $0 == .anyRun }) { continue }
            guard glob(elements[...], Array((text ?? "").unicodeScalars)[...], fold: fold) else { return false }
        }
        return true
    }

    enum Element: Equatable {
        case literal(Unicode.Scalar)
        case anyOne
        case anyRun
        case variable(String)
    }

    /// `$(name)` is a variable only when closed before another `$` or `(`, and only in patterns, not values.
    static func elements(_ text: String, variables: Bool) -> [Element] {
        let scalars = Array(text.unicodeScalars)
        var result: [Element] = []
        var index = 0
        scanning: while index < scalars.count {
            if variables, scalars[index] == "$", index + 1 < scalars.count, scalars[index + 1] == "(" {
                var end = index + 2
                while end < scalars.count, scalars[end] != ")", scalars[end] != "$", scalars[end] != "(" { end += 1 }
                if end < scalars.count, scalars[end] == ")", end > index + 2 {
                    result.append(.variable(String(String.UnicodeScalarView(scalars[(index + 2)..<end]))))
                    index = end + 1
                    continue scanning
                }
            }
            switch scalars[index] {
            case "*": result.append(.anyRun)
            case "?": result.append(.anyOne)
            default: result.append(.literal(scalars[index]))
            }
            index += 1
        }
        return result
    }

    /// Whether `pattern` matches all of `text`, trying every way; memoized on the position in the pattern (and in a
    /// variable's value) and in the text, so patterns full of `*` and variables stay polynomial.
    private func glob(_ pattern: ArraySlice<Element>, _ text: ArraySlice<Unicode.Scalar>, fold: Bool) -> Bool {
        var walk = GlobWalk(
            pattern: Array(pattern), text: Array(text), fold: fold,
            values: variables.mapValues { $0.map { Self.elements($0, variables: false) } })
        return walk.matches(GlobWalk.Position(element: 0, value: nil, offset: 0), 0)
    }
}

/// The backtracking walk of `ReferenceMatcher`, with its memo.
private struct GlobWalk {
    /// Where the walk is in the pattern: an element, and inside a variable's value (which one, how far) or not.
    struct Position: Hashable {
        var element: Int
        var value: Int?
        var offset: Int
    }

    struct Key: Hashable {
        var position: Position
        var text: Int
    }

    let pattern: [ReferenceMatcher.Element]
    let text: [Unicode.Scalar]
    let fold: Bool
    let values: [String: [[ReferenceMatcher.Element]]]
    var memo: [Key: Bool] = [:]

    mutating func matches(_ position: Position, _ index: Int) -> Bool {
        let key = Key(position: position, text: index)
        if let known = memo[key] { return known }
        let result = compute(position, index)
        memo[key] = result
        return result
    }

    private mutating func compute(_ position: Position, _ index: Int) -> Bool {
        guard position.element < pattern.count else { return index == text.count }
        let element: ReferenceMatcher.Element
        if let value = position.value, case .variable(let name) = pattern[position.element] {
            let elements = values[name]![value]
            guard position.offset < elements.count else {
                return matches(Position(element: position.element + 1, value: nil, offset: 0), index)
            }
            element = elements[position.offset]
        } else {
            element = pattern[position.element]
        }
        let next =
            position.value == nil
            ? Position(element: position.element + 1, value: nil, offset: 0)
            : Position(element: position.element, value: position.value, offset: position.offset + 1)
        switch element {
        case .anyRun:
            return matches(next, index) || (index < text.count && matches(position, index + 1))
        case .anyOne:
            return index < text.count && matches(next, index + 1)
        case .literal(let scalar):
            return index < text.count && Self.same(scalar, text[index], fold: fold) && matches(next, index + 1)
        case .variable(let name):
            let count = values[name]?.count ?? 0
            return (0..<count).contains { matches(Position(element: position.element, value: $0, offset: 0), index) }
        }
    }

    private static func same(_ a: Unicode.Scalar, _ b: Unicode.Scalar, fold: Bool) -> Bool {
        fold ? a.properties.lowercaseMapping == b.properties.lowercaseMapping : a == b
    }
}
