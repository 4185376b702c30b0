/// One rule of one `details` entry, compiled once per document so each URL only runs automata.
struct CompiledRule: Sendable {
    /// The query part of a component.
    enum QueryMatcher: Sendable {
        /// Matches every query (pattern `*`, or a dictionary Apple disregards).
        case any
        case whole(GlobAutomaton)
        /// Every named item must match; an absent item is matched as `""`, and every repeat of a name must match.
        case items([(name: String, automaton: GlobAutomaton)])
    }

    let description: DecidingRule
    let form: PreparedURL.Form
    /// `nil` when the pattern matches everything, so the part is not even prepared.
    let path: GlobAutomaton?
    let query: QueryMatcher
    let fragment: GlobAutomaton?

    var excludes: Bool { description.exclude }

    /// A modern component, with defaults applied.
    init(component effective: EffectiveComponent, description: DecidingRule, variables: SubstitutionVariables) {
        self.description = description
        form = PreparedURL.Form(decodes: !effective.percentEncoded, folds: !effective.caseSensitive)
        let folds = form.folds
        path = Self.pathAutomaton(effective.path, variables: variables, folds: folds)
        fragment = Self.automaton(effective.fragment, variables: variables, folds: folds)
        switch effective.query {
        case .disregarded:
            query = .any
        case .string(let pattern):
            query = Self.automaton(pattern, variables: variables, folds: folds).map { .whole($0) } ?? .any
        case .items(let items):
            query = .items(
                items.map { item in
                    let pattern = GlobPattern(item.pattern)
                    return (item.name, AutomatonBuilder.compile(pattern, variables: variables, foldsCase: folds))
                })
        }
    }

    /// A legacy `paths` pattern: path only, case-sensitive, encoded; `NOT ` excludes.
    init(legacyPath pattern: String, description: DecidingRule, variables: SubstitutionVariables) {
        self.description = description
        form = PreparedURL.Form(decodes: false, folds: false)
        let body = pattern.hasPrefix("NOT ") ? String(pattern.dropFirst(4)) : pattern
        path = Self.pathAutomaton(body, variables: variables, folds: false)
        query = .any
        fragment = nil
    }

    func matches(_ url: inout PreparedURL) -> Bool {
        if let path, !path.matches(url.path(form)) { return false }
        switch query {
        case .any: break
        case .whole(let automaton):
            if !automaton.matches(url.query(form)) { return false }
        case .items(let rules):
            let items = url.queryItems(form)
            for rule in rules {
                var seen = false
                for item in items where item.name == rule.name {
                    seen = true
                    if !rule.automaton.matches(item.value) { return false }
                }
                if !seen && !rule.automaton.matches([]) { return false }
            }
        }
        if let fragment, !fragment.matches(url.fragment(form)) { return false }
        return true
    }

    private static func automaton(_ text: String, variables: SubstitutionVariables, folds: Bool) -> GlobAutomaton? {
        let pattern = GlobPattern(text)
        if pattern.matchesEverything { return nil }
        return AutomatonBuilder.compile(pattern, variables: variables, foldsCase: folds)
    }

    /// Path rules P1–P5 on the pattern side: exactly one leading `/`, one trailing `/` dropped (unless the
    /// pattern is `/`), and a final `/*` that may also match nothing.
    private static func pathAutomaton(_ text: String, variables: SubstitutionVariables, folds: Bool) -> GlobAutomaton? {
        var pattern = GlobPattern("/" + text.drop(while: { $0 == "/" }))
        let slash = GlobPattern.Element.literal(UInt32(UInt8(ascii: "/")))
        if pattern.elements.count > 1 && pattern.elements.last == slash { pattern.elements.removeLast() }
        if pattern.elements.count >= 2 && pattern.elements.dropFirst().allSatisfy({ $0 == .anyRun }) { return nil }
        return AutomatonBuilder.compile(pattern, variables: variables, foldsCase: folds, optionalSlashStarTail: true)
    }
}
