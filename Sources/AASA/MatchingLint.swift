/// Lint rules that need the matcher's semantics: `aasa.unreachable_rule` and `aasa.exclude_matches_all`.
///
/// Both are judged on effective components (defaults applied), within one `details` entry, and only when the
/// answer is certain: an earlier rule must provably match every URL the later one would. Glob inclusion in
/// general is expensive to decide, so the check covers the shapes people actually write (`*`, equal patterns,
/// `prefix*`, `/dir/*` before `/dir`) and stays silent otherwise — a missed warning costs less than a false one.
public enum MatchingLint {
    /// Findings about rules that can never decide anything, or that decide everything.
    public static func findings(in document: AASADocument) -> [Finding] {
        guard let applinks = document.applinks else { return [] }
        var findings: [Finding] = []
        for entry in applinks.details {
            if let components = entry.components {
                let rules = components.map {
                    LintedRule(
                        jsonPath: $0.jsonPath, name: "components", index: 0,
                        effective: EffectiveComponent(
                            $0, entryDefaults: entry.defaults, serviceDefaults: applinks.defaults))
                }
                findings += check(numbered(rules, list: "components"))
            } else if let paths = entry.paths {
                let rules = paths.enumerated().map { index, pattern in
                    LintedRule(
                        jsonPath: "\(entry.jsonPath).paths[\(index)]", name: "paths", index: index, legacy: pattern)
                }
                findings += check(rules)
            }
        }
        return findings
    }

    private static func numbered(_ rules: [LintedRule], list: String) -> [LintedRule] {
        rules.enumerated().map { index, rule in
            var rule = rule
            rule.index = index
            rule.name = list
            return rule
        }
    }

    private static func check(_ rules: [LintedRule]) -> [Finding] {
        var findings: [Finding] = []
        var index = CoveringIndex()
        for (position, rule) in rules.enumerated() {
            if rule.effective.exclude && rule.matchesEveryURL {
                findings.append(
                    Finding(
                        code: .aasaExcludeMatchesAll, severity: .warning, path: rule.jsonPath,
                        message: rule.excludeEverythingAdvice))
            }
            let covering = index.candidates(for: rule).first { rules[$0].covers(rule) }
            index.add(rule, at: position)
            if let earlier = covering.map({ rules[$0] }) {
                findings.append(
                    Finding(
                        code: .aasaUnreachableRule, severity: .warning, path: rule.jsonPath,
                        message: "this rule is never reached: \(earlier.name)[\(earlier.index)] comes first and "
                            + "already matches every URL it would (the first matching rule decides); "
                            + "move it above \(earlier.name)[\(earlier.index)] or remove it"))
            }
        }
        return findings
    }
}

/// The earlier rules of a list that may cover a later one, found without comparing every pair: a file of 10 000
/// rules would otherwise cost 50 million comparisons.
///
/// `LintedRule.covers` needs the earlier rule's path pattern to match every path, to equal the later one's (after
/// P2–P3 normalization; `URLMatcher` lists the path rules), to be `/dir/*` before `/dir` (P4), or to be a literal
/// prefix plus `*` that the later path starts with; each shape has its own lookup here. Candidates are then checked with `covers` itself, at most
/// `maximumCandidates` of them per rule, which only ever costs a warning, never a false one.
struct CoveringIndex {
    static let maximumCandidates = 64

    /// Rules whose path pattern matches every path (their query or fragment may still narrow them).
    private var anyPath: [Int] = []
    /// Rules by normalized path pattern, and `/dir/*` rules also under `/dir`.
    private var byPath: [String: [Int]] = [:]
    /// A trie over the literal prefixes of `prefix*` patterns: children by scalar, and the rules ending at a node.
    private var children: [[UInt32: Int]] = [[:]]
    private var rulesAtNode: [[Int]] = [[]]

    mutating func add(_ rule: LintedRule, at position: Int) {
        let pattern = rule.effective.path
        if PatternInclusion.pathMatchesEverything(pattern) {
            if anyPath.count < Self.maximumCandidates { anyPath.append(position) }
            return
        }
        let path = PatternInclusion.normalized(pattern)
        append(position, to: path)
        guard path.hasSuffix("*") else { return }
        let prefix = path.dropLast()
        guard PatternInclusion.isLiteral(prefix) else { return }
        if prefix.hasSuffix("/") { append(position, to: String(prefix.dropLast())) }
        var node = 0
        for scalar in prefix.unicodeScalars {
            if let next = children[node][scalar.value] {
                node = next
            } else {
                children.append([:])
                rulesAtNode.append([])
                children[node][scalar.value] = children.count - 1
                node = children.count - 1
            }
        }
        if rulesAtNode[node].count < Self.maximumCandidates { rulesAtNode[node].append(position) }
    }

    /// Earlier rules that may cover `rule`, in document order.
    func candidates(for rule: LintedRule) -> [Int] {
        let path = PatternInclusion.normalized(rule.effective.path)
        var found = anyPath + (byPath[path] ?? [])
        var node = 0
        for scalar in path.unicodeScalars {
            guard found.count < Self.maximumCandidates * 2, let next = children[node][scalar.value] else { break }
            node = next
            found += rulesAtNode[node]
        }
        return Array(Set(found).sorted().prefix(Self.maximumCandidates))
    }

    private mutating func append(_ position: Int, to path: String) {
        if byPath[path, default: []].count < Self.maximumCandidates { byPath[path, default: []].append(position) }
    }
}

/// A rule as the lint rules see it: its effective parts and where it is.
struct LintedRule {
    var jsonPath: String
    var name: String
    var index: Int
    var effective: EffectiveComponent

    init(jsonPath: String, name: String, index: Int, effective: EffectiveComponent) {
        self.jsonPath = jsonPath
        self.name = name
        self.index = index
        self.effective = effective
    }

    /// A legacy path: path only, `NOT ` excludes, Apple's built-in case and encoding.
    init(jsonPath: String, name: String, index: Int, legacy pattern: String) {
        let excludes = pattern.hasPrefix("NOT ")
        let component = ComponentRule(
            path: excludes ? String(pattern.dropFirst(4)) : pattern, exclude: excludes, jsonPath: jsonPath)
        self.init(
            jsonPath: jsonPath, name: name, index: index,
            effective: EffectiveComponent(component, entryDefaults: nil, serviceDefaults: nil))
    }

    var matchesEveryURL: Bool {
        PatternInclusion.pathMatchesEverything(effective.path)
            && PatternInclusion.queryMatchesEverything(effective.query)
            && PatternInclusion.matchesEverything(effective.fragment)
    }

    /// What to tell the author of an exclude rule that blocks every URL.
    var excludeEverythingAdvice: String {
        if case .items(let items) = effective.query, let item = items.first {
            return "this exclude rule blocks every URL: query item \"\(item.name)\" with pattern \"\(item.pattern)\" "
                + "also matches URLs without the item; use \"?*\" to require the item"
        }
        return "this exclude rule matches every URL, so no URL of this entry opens the app; narrow its patterns"
    }

    /// True when every URL `later` matches is certainly matched by `self`.
    func covers(_ later: LintedRule) -> Bool {
        let mine = effective
        let theirs = later.effective
        if matchesEveryURL { return true }
        guard mine.percentEncoded == theirs.percentEncoded, mine.caseSensitive == theirs.caseSensitive else {
            return false
        }
        return PatternInclusion.path(mine.path, covers: theirs.path)
            && PatternInclusion.query(mine.query, covers: theirs.query)
            && PatternInclusion.glob(mine.fragment, covers: theirs.fragment)
    }
}
