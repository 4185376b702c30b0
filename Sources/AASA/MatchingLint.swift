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
        for (position, rule) in rules.enumerated() {
            if rule.effective.exclude && rule.matchesEveryURL {
                findings.append(
                    Finding(
                        code: "aasa.exclude_matches_all", severity: .warning, path: rule.jsonPath,
                        message: rule.excludeEverythingAdvice))
            }
            if let earlier = rules[..<position].first(where: { $0.covers(rule) }) {
                findings.append(
                    Finding(
                        code: "aasa.unreachable_rule", severity: .warning, path: rule.jsonPath,
                        message: "this rule is never reached: \(earlier.name)[\(earlier.index)] comes first and "
                            + "already matches every URL it would (the first matching rule decides); "
                            + "move it above \(earlier.name)[\(earlier.index)] or remove it"))
            }
        }
        return findings
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
