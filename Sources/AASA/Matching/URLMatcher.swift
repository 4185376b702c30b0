/// Decides, as Apple does, whether a URL opens an app: `match`, `exclude` or `no_match`, and which rule decided.
///
/// Build one per document: every rule is compiled once into automata, then each decision walks the `details`
/// entries that list the app in document order, and within each its `components` (or, without them, its legacy
/// `paths`); the first rule that matches decides, and an exclude stops everything.
///
/// Paths follow Apple's path rules as observed with `swcutil`, numbered P1–P6 in comments and tests: P1 the
/// pattern must cover the whole path; P2 the pattern's leading `/` is optional; P3 trailing slashes are
/// insignificant on either side; P4 a pattern ending in `/*` also matches the path without that segment; P5 nothing
/// collapses and nothing is added for a wildcard to eat; P6 an empty path counts as `/`.
///
/// ```swift
/// let matcher = URLMatcher(document: document)
/// let outcome = try matcher.decide(url: "https://example.com/buy/42", appID: "ABCDE12345.com.example.app",
///                                  domain: "example.com")
/// // outcome.decision == .match, outcome.rule?.jsonPath == "$.applinks.details[0].components[1]"
/// ```
public struct URLMatcher: Sendable {
    private struct Entry: Sendable {
        var appIDs: Set<String>
        var rules: [CompiledRule]
    }

    private let entries: [Entry]

    public init(document: AASADocument) {
        guard let applinks = document.applinks else {
            entries = []
            return
        }
        let variables = SubstitutionVariables(applinks.substitutionVariables)
        entries = applinks.details.enumerated().map { entryIndex, entry in
            Entry(appIDs: Set(entry.appIDs), rules: Self.rules(of: entry, at: entryIndex, in: applinks, variables))
        }
    }

    /// Decides for a URL given as text; throws when it is not an absolute http(s) URL.
    public func decide(url: String, appID: String, domain: String? = nil) throws(URLMatchError) -> MatchOutcome {
        decide(try MatchableURL(url), appID: appID, domain: domain)
    }

    /// Decides for a parsed URL. With `domain`, a URL on another host is `no_match` (hosts compare
    /// case-insensitively; `*.example.com` covers its subdomains, not example.com); without it the host is not
    /// checked.
    public func decide(_ url: MatchableURL, appID: String, domain: String? = nil) -> MatchOutcome {
        if let domain, !Self.host(url.host, isCoveredBy: domain) {
            return MatchOutcome(decision: .noMatch, rule: nil, reason: "the URL's host \(url.host) is not \(domain)")
        }
        var prepared = PreparedURL(url)
        var listed = false
        for entry in entries where entry.appIDs.contains(appID) {
            listed = true
            for rule in entry.rules where rule.matches(&prepared) {
                return MatchOutcome(decision: rule.excludes ? .exclude : .match, rule: rule.description)
            }
        }
        let reason = listed ? "no rule matches the URL" : "no applinks details entry lists \(appID)"
        return MatchOutcome(decision: .noMatch, rule: nil, reason: reason)
    }

    static func host(_ host: String, isCoveredBy domain: String) -> Bool {
        var expected = domain.lowercased()
        if expected.hasSuffix(".") { expected.removeLast() }
        if expected.hasPrefix("*.") {
            // Only subdomains: Apple documents that "*.example.com" does not match example.com itself, because of
            // the period after the asterisk (Supporting associated domains).
            return host.hasSuffix(expected.dropFirst(1))
        }
        return host == expected
    }

    /// The entry's rule list: `components` when present (iOS 13+ then ignores `paths`), else `paths`.
    private static func rules(
        of entry: AppLinksEntry, at entryIndex: Int, in applinks: AppLinksService, _ variables: SubstitutionVariables
    ) -> [CompiledRule] {
        if let components = entry.components {
            return components.enumerated().map { index, component in
                let effective = EffectiveComponent(
                    component, entryDefaults: entry.defaults, serviceDefaults: applinks.defaults)
                let description = DecidingRule(
                    jsonPath: component.jsonPath, entry: entryIndex, kind: .components, index: index,
                    exclude: effective.exclude, pattern: effective, path: nil)
                return CompiledRule(component: effective, description: description, variables: variables)
            }
        }
        return (entry.paths ?? []).enumerated().map { index, pattern in
            let description = DecidingRule(
                jsonPath: "\(entry.jsonPath).paths[\(index)]", entry: entryIndex, kind: .paths, index: index,
                exclude: pattern.hasPrefix("NOT "), pattern: nil, path: pattern)
            return CompiledRule(legacyPath: pattern, description: description, variables: variables)
        }
    }
}
