import AASA

/// "What to do" for a finding code: the registry's one short instruction a person can act on (`FindingCode.fix`).
public enum FixAdvice {
    /// The advice for `code`; a code this version does not know (from another version's history) gets a general line.
    public static func text(for code: String) -> String {
        FindingCode(id: code)?.fix ?? "Run `aasa-monitor check` on the domain for details."
    }
}
