/// Lint rules that need the matcher's semantics: `aasa.unreachable_rule` and `aasa.exclude_matches_all`.
public enum MatchingLint {
    /// Findings about rules that can never decide anything, or that decide everything.
    public static func findings(in document: AASADocument) -> [Finding] {
        []
    }
}
