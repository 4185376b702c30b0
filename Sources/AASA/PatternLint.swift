/// Lint rules about the text of patterns: variables, `NOT`, and query or fragment text inside path patterns.
enum PatternLint {
    /// `$(name)` Apple defines itself (`alpha`, `upper`, `lower`, `alnum`, `digit`, `xdigit`, `region`, `lang`),
    /// as the matcher knows them.
    static let predefinedVariables = SubstitutionVariables.predefinedNames

    static func findings(in service: AppLinksService) -> [Finding] {
        var findings: [Finding] = []
        var advisor = UndefinedVariableAdvisor(defined: service.substitutionVariables.map(\.name))
        var rules: [ComponentRule] = []
        if let defaults = service.defaults { rules.append(defaults) }
        for entry in service.details {
            if let defaults = entry.defaults { rules.append(defaults) }
            rules.append(contentsOf: entry.components ?? [])
            for (index, pattern) in (entry.paths ?? []).enumerated() {
                let path = JSONPath.index(JSONPath.child(entry.jsonPath, "paths"), index)
                findings += legacyPathFindings(pattern, at: path)
                findings += variableFindings(pattern, at: path, advisor: &advisor)
            }
        }
        for rule in rules {
            if let pattern = rule.path {
                let path = JSONPath.child(rule.jsonPath, "/")
                findings += variableFindings(pattern, at: path, advisor: &advisor)
                if pattern.contains("#") {
                    findings.append(
                        Finding(
                            code: .aasaQueryInPath, severity: .warning, path: path,
                            message: "\"#\" in a \"/\" pattern is literal path text and never matches a fragment "
                                + "(e.g. SPA hash routes); put the fragment pattern under the \"#\" key"
                        ))
                }
            }
            if let pattern = rule.fragment {
                findings += variableFindings(pattern, at: JSONPath.child(rule.jsonPath, "#"), advisor: &advisor)
            }
            switch rule.query {
            case .string(let pattern):
                findings += variableFindings(pattern, at: JSONPath.child(rule.jsonPath, "?"), advisor: &advisor)
            case .items(let items):
                let queryPath = JSONPath.child(rule.jsonPath, "?")
                for item in items {
                    findings += variableFindings(
                        item.pattern, at: JSONPath.child(queryPath, item.name), advisor: &advisor)
                }
            case .disregarded, nil:
                break
            }
        }
        return findings
    }

    /// `$(name)` references that are neither predefined nor defined in `substitutionVariables`; Apple then
    /// matches nothing for them, so the rule silently never fires.
    private static func variableFindings(
        _ pattern: String, at path: String, advisor: inout UndefinedVariableAdvisor
    ) -> [Finding] {
        var findings: [Finding] = []
        var reported: Set<String> = []
        for name in variableNames(in: pattern) where !advisor.isDefined(name) && reported.insert(name).inserted {
            var message =
                "$(\(name)) is neither predefined nor defined in applinks.substitutionVariables, so "
                + "this pattern never matches; define it"
            if let suggestion = advisor.suggestion(for: name) {
                message += " or write $(\(suggestion))"
            }
            findings.append(Finding(code: .aasaUndefinedVariable, severity: .error, path: path, message: message))
        }
        return findings
    }

    /// The names in `$(…)` references, in order, read exactly as the matcher reads them.
    static func variableNames(in pattern: String) -> [String] {
        GlobPattern(pattern).variableNames
    }

    /// Problems specific to legacy `paths` strings.
    private static func legacyPathFindings(_ pattern: String, at path: String) -> [Finding] {
        if pattern.hasPrefix("NOT") && !pattern.hasPrefix("NOT ") && pattern.count > 3 {
            let rest = pattern.dropFirst(3).trimmingPrefix { $0 == " " || $0 == "\t" }
            return [
                Finding(
                    code: .aasaNotWithoutSpace, severity: .warning, path: path,
                    message: "\"\(pattern)\" is matched as literal text, not as an exclusion: \"NOT\" needs one "
                        + "space after it; write \"NOT \(rest)\""
                )
            ]
        }
        let body = pattern.hasPrefix("NOT ") ? String(pattern.dropFirst(4)) : pattern
        if body.contains("#") {
            return [
                Finding(
                    code: .aasaQueryInPath, severity: .warning, path: path,
                    message: "legacy \"paths\" match the URL path only, so \"#…\" here is literal path text and "
                        + "never matches a fragment; use \"components\" with a \"#\" key"
                )
            ]
        }
        if let questionMark = body.firstIndex(of: "?"), body[questionMark...].contains("=") {
            return [
                Finding(
                    code: .aasaQueryInPath, severity: .warning, path: path,
                    message: "legacy \"paths\" match the URL path only (\"?\" is a one-character wildcard), so "
                        + "this pattern never sees the query; use \"components\" with a \"?\" key"
                )
            ]
        }
        return []
    }
}

/// Which variable names exist, and "did you mean" for those that do not, at a bounded cost.
///
/// A suggestion compares a name with every known one, so a hostile file (thousands of defined variables and
/// thousands of distinct undefined ones) would cost millions of comparisons: over a minute on a 100 KB file.
/// Suggestions are therefore remembered per name and made for the first `suggestionBudget` distinct names only;
/// later ones still get their finding, without the hint.
struct UndefinedVariableAdvisor {
    static let suggestionBudget = 64

    private let defined: Set<String>
    private let candidates: [String]
    private var suggestions: [String: String?] = [:]

    init(defined names: [String]) {
        defined = Set(names)
        candidates = names + PatternLint.predefinedVariables.sorted()
    }

    func isDefined(_ name: String) -> Bool {
        defined.contains(name) || PatternLint.predefinedVariables.contains(name)
    }

    mutating func suggestion(for name: String) -> String? {
        if let known = suggestions[name] { return known }
        guard suggestions.count < Self.suggestionBudget else { return nil }
        let suggestion = KnownKeys.suggestion(for: name, among: candidates)
        suggestions[name] = suggestion
        return suggestion
    }
}
