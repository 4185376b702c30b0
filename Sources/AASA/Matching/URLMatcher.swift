/// Decides, as Apple does, whether a URL opens an app: `match`, `exclude` or `no_match`, and which rule decided.
///
/// Build one per document: every rule is compiled once (plain globs into `GlobProgram`s, patterns with
/// multi-character variables into `VariableProgram`s or automata), and each app's rules are indexed by their
/// literal first path segment (`RuleIndex`). Each decision walks, in document order, the rules of the `details`
/// entries that list the app (their `components`, or without them their legacy `paths`) that its URL's first
/// segment leaves possible; the first rule that matches decides, and an exclude stops everything. A decision
/// allocates nothing for an ordinary URL and has a step budget (`undecided` when spent).
///
/// Paths follow Apple's path rules as observed with `swcutil`, numbered P1–P6 in comments and tests: P1 the
/// pattern must cover the whole path; P2 the pattern's leading `/` is optional; P3 trailing slashes are
/// insignificant on either side, however many: every one is dropped from the path and from the pattern
/// (`/buy/` matches `/buy//`); P4 a pattern ending in `/*` also matches the path without that segment; P5
/// nothing collapses and nothing is added for a wildcard to eat; P6 an empty path counts as `/`.
///
/// ```swift
/// let matcher = URLMatcher(document: document)
/// let outcome = try matcher.decide(url: "https://example.com/buy/42", appID: "ABCDE12345.com.example.app",
///                                  domain: "example.com")
/// // outcome.decision == .match, outcome.rule?.jsonPath == "$.applinks.details[0].components[1]"
/// ```
public struct URLMatcher: Sendable {
    /// The step budget of one decision unless the caller sets another: about a tenth of a second of matching on
    /// a current core, thousands of times what a real file and URL need, so only hostile or broken patterns
    /// reach it (they then get `undecided`, "pattern too large to decide safely").
    public static let defaultStepBudget = 50_000_000

    /// Every rule of every entry, in document order.
    private let rules: [CompiledRule]
    /// Each listed app's rules in decision order, found through `apps` (an index, so no copy per decision).
    private let indexes: [RuleIndex]
    private let apps: [String: Int]
    private let stepBudget: Int

    public init(document: AASADocument, stepBudget: Int = URLMatcher.defaultStepBudget) {
        self.stepBudget = stepBudget
        guard let applinks = document.applinks else {
            rules = []
            indexes = []
            apps = [:]
            return
        }
        let variables = SubstitutionVariables(applinks.substitutionVariables)
        var rules: [CompiledRule] = []
        var orders: [String: [Int]] = [:]
        for (entryIndex, entry) in applinks.details.enumerated() {
            let first = rules.count
            rules += Self.rules(of: entry, at: entryIndex, in: applinks, variables)
            for appID in Set(entry.appIDs) { orders[appID, default: []] += Array(first..<rules.count) }
        }
        self.rules = rules
        let listed = orders.sorted { $0.key < $1.key }
        indexes = listed.map { RuleIndex(order: $0.value, rules: rules) }
        apps = Dictionary(uniqueKeysWithValues: listed.enumerated().map { ($0.element.key, $0.offset) })
    }

    /// Decides for a URL given as text; throws when it is not an absolute http(s) URL.
    public func decide(url: String, appID: String, domain: String? = nil) throws(URLMatchError) -> MatchOutcome {
        decide(try MatchableURL(url), appID: appID, domain: domain)
    }

    /// Decides for a parsed URL. With `domain`, a URL on another host is `no_match` (hosts compare
    /// case-insensitively; `*.example.com` covers its subdomains, not example.com); without it the host is not
    /// checked.
    public func decide(_ url: MatchableURL, appID: String, domain: String? = nil) -> MatchOutcome {
        decideCountingSteps(url, appID: appID, domain: domain).outcome
    }

    /// `decide`, with the steps the decision took: tests and benchmarks use it to show matching stays linear.
    public func decideCountingSteps(
        _ url: MatchableURL, appID: String, domain: String? = nil
    ) -> (outcome: MatchOutcome, steps: Int) {
        if let domain, !Self.host(url.host, isCoveredBy: domain) {
            let reason = "the URL's host \(url.host) is not \(domain)"
            return (MatchOutcome(decision: .noMatch, rule: nil, reason: reason), 0)
        }
        guard let number = apps[appID] else {
            return (MatchOutcome(decision: .noMatch, rule: nil, reason: "no applinks details entry lists \(appID)"), 0)
        }
        var budget = StepBudget(limit: stepBudget)
        let sizes = PreparedURL.Sizes(url)
        let outcome = indexes.withUnsafeBufferPointer { indexes in
            withUnsafeTemporaryAllocation(
                of: UInt32.self, capacity: PreparedURL.capacity(sizes, forms: indexes[number].formCount)
            ) { buffer in
                var prepared = PreparedURL(url, sizes: sizes, buffer: buffer)
                return rules.withUnsafeBufferPointer { rules in
                    Self.decide(
                        &prepared, index: indexes[number], rules: rules, budget: &budget,
                        urlLength: sizes.path + sizes.query + sizes.fragment)
                }
            }
        }
        return (outcome, budget.used)
    }

    /// Walks the candidate rules in document order: the unindexed ones merged with the URL's first-segment
    /// bucket in each indexed form. The first rule that matches decides.
    private static func decide(
        _ url: inout PreparedURL, index: RuleIndex, rules: UnsafeBufferPointer<CompiledRule>,
        budget: inout StepBudget, urlLength: Int
    ) -> MatchOutcome {
        // Cursors and ends of up to five lists: the unindexed rules and one bucket per form.
        var cursors = SIMD8<Int>(repeating: 0)
        var ends = SIMD8<Int>(repeating: 0)
        cursors[0] = index.unindexed.lowerBound
        ends[0] = index.unindexed.upperBound
        var listCount = 1
        for slot in index.indexedSlots {
            let path = url.path(PreparedURL.Form(slot: slot))
            let bucket = index.bucket(slot: slot, segment: RuleIndex.firstSegment(of: path))
            cursors[listCount] = bucket.lowerBound
            ends[listCount] = bucket.upperBound
            listCount += 1
        }
        while true {
            var best = -1
            var bestRule = Int.max
            for list in 0..<listCount where cursors[list] < ends[list] {
                let number = index.rule(at: cursors[list])
                if number < bestRule {
                    bestRule = number
                    best = list
                }
            }
            guard best >= 0 else { break }
            cursors[best] += 1
            if rules[bestRule].matches(&url, budget: &budget) {
                let rule = rules[bestRule]
                return MatchOutcome(decision: rule.excludes ? .exclude : .match, rule: rule.description)
            }
            if budget.isSpent { return undecided(rules[bestRule], budget: budget, urlLength: urlLength) }
        }
        return MatchOutcome(decision: .noMatch, rule: nil, reason: "no rule matches the URL")
    }

    /// The outcome when `rule` spent the budget: which rule, how large, and what to do about it.
    private static func undecided(_ rule: CompiledRule, budget: StepBudget, urlLength: Int) -> MatchOutcome {
        MatchOutcome(
            decision: .undecided, rule: rule.description,
            reason: "pattern too large to decide safely: the rule at \(rule.description.jsonPath) "
                + "(\(rule.size) pattern elements) needs more than \(budget.limit) steps for this URL "
                + "(\(urlLength) characters of path, query and fragment); simplify the pattern (fewer * and ? "
                + "between literal text) or shorten it")
    }

    static func host(_ host: String, isCoveredBy domain: String) -> Bool {
        if host == domain { return true }  // the usual case, without lower-casing a copy per decision
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
