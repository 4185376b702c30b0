/// One rule of one `details` entry, compiled once per document so each URL only runs compiled matchers.
final class CompiledRule: Sendable {
    /// The query part of a component.
    enum QueryMatcher: Sendable {
        /// Matches every query (pattern `*`, or a dictionary Apple disregards).
        case any
        case whole(TextMatcher)
        /// Every named item must match; an absent item is matched as `""`, and every repeat of a name must match.
        case items([(name: [UInt32], value: TextMatcher)])
    }

    let description: DecidingRule
    let form: PreparedURL.Form
    /// `nil` when the pattern matches every path, so the part is not even prepared.
    let path: TextMatcher?
    let query: QueryMatcher
    let fragment: TextMatcher?
    /// The matcher of `query` when it is `.whole`, kept apart so a decision reaches it without unpacking the enum.
    let queryWhole: TextMatcher?
    /// The path's first segment (between the leading `/` and the next, in the rule's form) when the pattern
    /// spells it out literally; only URLs with that first segment can match, which `RuleIndex` uses.
    let firstSegment: [UInt32]?

    var excludes: Bool { description.exclude }

    /// A modern component, with defaults applied.
    init(component effective: EffectiveComponent, description: DecidingRule, variables: SubstitutionVariables) {
        self.description = description
        form = PreparedURL.Form(decodes: !effective.percentEncoded, folds: !effective.caseSensitive)
        let folds = form.folds
        let path = Self.pathElements(effective.path)
        self.path = path.map {
            TextMatcher.compile($0, variables: variables, foldsCase: folds, optionalSlashStarTail: true)
        }
        firstSegment = path.flatMap { Self.firstSegment(of: $0, folds: folds) }
        fragment = Self.matcher(effective.fragment, variables: variables, folds: folds)
        switch effective.query {
        case .disregarded:
            query = .any
        case .string(let pattern):
            query = Self.matcher(pattern, variables: variables, folds: folds).map { .whole($0) } ?? .any
        case .items(let items):
            query = .items(
                items.map { item in
                    let pattern = GlobPattern(item.pattern).elements
                    return (
                        item.name.unicodeScalars.map(\.value),
                        TextMatcher.compile(pattern, variables: variables, foldsCase: folds)
                    )
                })
        }
        if case .whole(let matcher) = query { queryWhole = matcher } else { queryWhole = nil }
    }

    /// A legacy `paths` pattern: path only, case-sensitive, encoded; `NOT ` excludes.
    init(legacyPath pattern: String, description: DecidingRule, variables: SubstitutionVariables) {
        self.description = description
        form = PreparedURL.Form(decodes: false, folds: false)
        let body = pattern.hasPrefix("NOT ") ? String(pattern.dropFirst(4)) : pattern
        let path = Self.pathElements(body)
        self.path = path.map {
            TextMatcher.compile($0, variables: variables, foldsCase: false, optionalSlashStarTail: true)
        }
        firstSegment = path.flatMap { Self.firstSegment(of: $0, folds: false) }
        query = .any
        queryWhole = nil
        fragment = nil
    }

    /// True when every part matches; false also once `budget` is spent (the caller checks which).
    func matches(_ url: inout PreparedURL, budget: inout StepBudget) -> Bool {
        // Optional chaining rather than `if let`, so the matcher is borrowed, not copied.
        if path?.matches(url.path(form), budget: &budget) == false { return false }
        if queryWhole?.matches(url.query(form), budget: &budget) == false { return false }
        switch query {
        case .any, .whole: break
        case .items(let rules):
            let count = url.itemCount(form)
            // By index, so the loop borrows each item rule instead of copying (and retaining) it.
            for number in rules.indices {
                var seen = false
                for index in 0..<count {
                    let item = url.item(index, form)
                    guard budget.spend(1), item.name.elementsEqual(rules[number].name) else { continue }
                    seen = true
                    if !rules[number].value.matches(item.value, budget: &budget) { return false }
                }
                if !seen && !rules[number].value.matches(UnsafeBufferPointer(start: nil, count: 0), budget: &budget) {
                    return false
                }
            }
        }
        if fragment?.matches(url.fragment(form), budget: &budget) == false { return false }
        return true
    }

    /// The largest pattern of the rule and what it was run against, for an undecided outcome's message.
    var size: Int {
        var largest = path?.size ?? 0
        if case .whole(let matcher) = query { largest = max(largest, matcher.size) }
        if case .items(let items) = query { largest = max(largest, items.map(\.value.size).max() ?? 0) }
        return max(largest, fragment?.size ?? 0)
    }

    private static func matcher(_ text: String, variables: SubstitutionVariables, folds: Bool) -> TextMatcher? {
        let pattern = GlobPattern(text)
        if pattern.matchesEverything { return nil }
        return TextMatcher.compile(pattern.elements, variables: variables, foldsCase: folds)
    }

    /// Path rules P1–P5 on the pattern side: exactly one leading `/` and every trailing `/` dropped (what remains
    /// of `/` or `//` is `/`); `nil` when the pattern then matches every path (`/*`, `/**`).
    static func pathElements(_ text: String) -> [GlobPattern.Element]? {
        var elements = GlobPattern("/" + text.drop(while: { $0 == "/" })).elements
        let slash = GlobPattern.Element.literal(UInt32(UInt8(ascii: "/")))
        while elements.count > 1 && elements.last == slash { elements.removeLast() }
        if elements.count >= 2 && elements.dropFirst().allSatisfy({ $0 == .anyRun }) { return nil }
        return elements
    }

    /// The literal first segment of a normalized path pattern, or `nil` when a wildcard or variable comes first.
    /// A final `/*` (P4) is left out first: `/buy/*` still needs the first segment `buy`.
    private static func firstSegment(of elements: [GlobPattern.Element], folds: Bool) -> [UInt32]? {
        let slash = UInt32(UInt8(ascii: "/"))
        var body = elements[...]
        if body.count >= 2 && body.last == .anyRun && body[body.endIndex - 2] == .literal(slash) {
            body = body.dropLast(2)
        }
        var segment: [UInt32] = []
        for element in body.dropFirst() {
            guard case .literal(let scalar) = element else { return nil }
            if scalar == slash { return segment }
            segment.append(folds ? CaseFolding.fold(scalar) : scalar)
        }
        return segment
    }
}
