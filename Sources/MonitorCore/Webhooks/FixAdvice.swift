import AASA

/// "What to do" for a finding code: the registry's one short instruction a person can act on (`FindingCode.fix`).
public enum FixAdvice {
    /// The advice for `code`; a code this version does not know (from another version's history) gets a general line.
    public static func text(for code: FindingCode) -> String { code.fix }

    /// The advice for the code named `id`, as a stored row or a person names it.
    public static func text(for id: String) -> String { FindingCode(storedID: id).fix }
}
