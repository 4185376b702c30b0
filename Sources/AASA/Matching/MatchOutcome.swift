/// What Apple would do with a URL for one app.
public enum MatchDecision: String, Sendable, Hashable, Codable {
    /// The URL opens the app.
    case match
    /// An exclude rule (or a legacy `NOT ` path) matched first: the URL opens in the browser, and no later rule
    /// can rescue it.
    case exclude
    /// No rule of any entry listing the app matches (or the host is another domain).
    case noMatch = "no_match"
    /// The rule in `rule` is too large to decide within the step budget for this URL ("pattern too large to
    /// decide safely"); `reason` names it. Neither a match nor a no-match: treat it as an error.
    case undecided
}

/// The decision for one URL and the rule that made it.
public struct MatchOutcome: Sendable, Hashable, Codable {
    public var decision: MatchDecision
    /// The deciding rule (for `undecided`, the rule that was too large); `nil` for `no_match`.
    public var rule: DecidingRule?
    /// Why nothing matched or nothing was decided, for a person (`no_match` and `undecided`).
    public var reason: String?

    public init(decision: MatchDecision, rule: DecidingRule?, reason: String? = nil) {
        self.decision = decision
        self.rule = rule
        self.reason = reason
    }
}

/// Where the deciding rule is, and what it meant once defaults were applied.
public struct DecidingRule: Sendable, Hashable, Codable {
    /// Which rule list decided: `components`, or legacy `paths`.
    public enum Kind: String, Sendable, Hashable, Codable {
        case components
        case paths
    }

    /// JSON path of the rule, e.g. `$.applinks.details[0].components[3]`.
    public var jsonPath: String
    /// Index of the `details` entry in document order.
    public var entry: Int
    public var kind: Kind
    /// Index of the rule within its list.
    public var index: Int
    /// Whether the rule excludes (its own `exclude`, a default's, or a `NOT ` prefix).
    public var exclude: Bool
    /// The effective component (`components` only): the rule with defaults applied.
    public var pattern: EffectiveComponent?
    /// The legacy path pattern as written, `NOT ` included (`paths` only).
    public var path: String?

    private enum CodingKeys: String, CodingKey {
        case jsonPath = "json_path"
        case entry, kind, index, exclude, pattern, path
    }
}
