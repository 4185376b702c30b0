import AASA

/// The URL matcher (issue 26 §2): the compiled matcher decides as `ReferenceMatcher` does, and never goes over
/// its step budget.
///
/// The input chooses, byte by byte, one `details` entry (modern components, or legacy `paths` with `NOT `), a
/// substitution variable, and a URL, all over a small alphabet so that the reference's backtracking stays
/// cheap and the two can disagree only about meaning. With the default budget such a small case is always
/// decided, agrees with the reference and takes steps linear in the pattern's and the URL's sizes; with a budget
/// of a few hundred steps it either agrees or is `undecided` after spending the budget, and overshoots the budget
/// by at most the few charges its matchers make at once (they count locally and charge every 4096 steps).
enum MatcherProperties {
    static let app = "ABCDE12345.com.example.app"

    static func check(_ bytes: [UInt8]) throws(PropertyViolation) {
        var input = FuzzInput(bytes)
        let legacy = input.flag()
        let values = (0..<input.choose(4)).map { _ in
            input.text(from: ["a", "b", "A", "/", "*", "?"], maximumLength: 3)
        }
        let variables = values.isEmpty ? [:] : ["v": values]
        let pathAlphabet = ["a", "b", "A", "/", "*", "?"] + (values.isEmpty ? [] : ["$(v)"])
        var rules: [ReferenceMatcher.Rule] = []
        for _ in 0..<(1 + input.choose(3)) {
            let path = input.text(from: pathAlphabet, maximumLength: 8)
            if legacy {
                rules.append(.init(path: path, exclude: input.flag(), caseSensitive: true))
                continue
            }
            let query = input.flag() ? input.text(from: ["a", "A", "=", "*", "?"], maximumLength: 4) : nil
            let fragment = input.flag() ? input.text(from: ["a", "A", "*", "?"], maximumLength: 4) : nil
            rules.append(
                .init(
                    path: input.flag() ? path : nil, query: query, fragment: fragment, exclude: input.flag(),
                    caseSensitive: input.flag()))
        }
        // A URL's path is empty or starts with `/` (anything else would be read as part of the host).
        let pathText = input.text(from: ["a", "b", "A", "/"], maximumLength: 8)
        let path = pathText.isEmpty || pathText.hasPrefix("/") ? pathText : "/" + pathText
        let query = input.flag() ? input.text(from: ["a", "A", "="], maximumLength: 4) : nil
        let fragment = input.flag() ? input.text(from: ["a", "A"], maximumLength: 4) : nil
        let smallBudget = 1 + Int(input.byte()) * 4

        var url = "https://example.com" + path
        if let query { url += "?" + query }
        if let fragment { url += "#" + fragment }
        let document = Self.document(rules, legacy: legacy, variables: variables)
        let expected = ReferenceMatcher(rules: rules, variables: variables)
            .decide(path: path, query: query, fragment: fragment)
        let matchable: MatchableURL
        do {
            matchable = try MatchableURL(url)
        } catch {
            throw PropertyViolation("\(url) is not a URL: \(error)")
        }
        let described = "\(rules) variables \(variables) URL \(url)"
        let full = URLMatcher(document: document).decideCountingSteps(matchable, appID: app)
        try PropertyViolation.require(
            full.outcome.decision.referenceName == expected,
            "decided \(full.outcome.decision) where the reference says \(expected): \(described)")
        try PropertyViolation.require(
            full.steps <= URLMatcher.defaultStepBudget, "\(full.steps) steps over the default budget: \(described)")

        // Matching is linear: steps grow with the pattern's size (variables' values included) times the URL's.
        let size =
            rules.map { ($0.path ?? "").count + ($0.query ?? "").count + ($0.fragment ?? "").count }
            .reduce(0, +) + 4 * values.joined().count + 4
        let length = url.count - "https://example.com".count + 2
        try PropertyViolation.require(
            full.steps <= 64 * size * length, "\(full.steps) steps for \(size) pattern and \(length) URL elements")

        let small = URLMatcher(document: document, stepBudget: smallBudget).decideCountingSteps(matchable, appID: app)
        // Matchers count steps locally and charge the budget every 4096 steps and when they finish, so a decision
        // may end past its budget by a few such charges, never more.
        let overshoot = 3 * (4096 + size + length)
        try PropertyViolation.require(
            small.steps <= smallBudget + overshoot,
            "\(small.steps) steps with a budget of \(smallBudget) (+\(overshoot)): \(described)")
        if small.outcome.decision == .undecided {
            try PropertyViolation.require(
                small.steps > smallBudget, "undecided after \(small.steps) of \(smallBudget) steps: \(described)")
        } else {
            try PropertyViolation.require(
                small.outcome.decision == full.outcome.decision,
                "decided \(small.outcome.decision) on a budget of \(smallBudget) and \(full.outcome.decision) on "
                    + "the default: \(described)")
        }
    }

    private static func document(
        _ rules: [ReferenceMatcher.Rule], legacy: Bool, variables: [String: [String]]
    ) -> AASADocument {
        let entryPath = "$.applinks.details[0]"
        let entry =
            legacy
            ? AppLinksEntry(
                appIDs: [app], paths: rules.map { ($0.exclude ? "NOT " : "") + ($0.path ?? "") }, jsonPath: entryPath)
            : AppLinksEntry(
                appIDs: [app],
                components: rules.enumerated().map { index, rule in
                    ComponentRule(
                        path: rule.path, query: rule.query.map { .string($0) }, fragment: rule.fragment,
                        exclude: rule.exclude, caseSensitive: rule.caseSensitive,
                        jsonPath: "\(entryPath).components[\(index)]")
                }, jsonPath: entryPath)
        let applinks = AppLinksService(
            details: [entry],
            substitutionVariables: variables.map { SubstitutionVariable(name: $0.key, values: $0.value) })
        return AASADocument(json: .null, applinks: applinks)
    }
}

extension MatchDecision {
    /// The reference matcher's word for the decision.
    fileprivate var referenceName: String {
        switch self {
        case .match: "match"
        case .exclude: "exclude"
        case .noMatch: "noMatch"
        case .undecided: "undecided"
        }
    }
}
