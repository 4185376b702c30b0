import AASA

/// Something worth saying about what a binary claims: an unknown service, a bad mode, a developer-mode claim in a
/// release build, slices that disagree.
///
/// Findings are about the claims, not about reading: a file that cannot be read is an `AppClaimsError` instead.
public struct ClaimFinding: Sendable, Hashable {
    /// An `app.*` code (`FindingCode.app`): a stable dotted id, as `aasa.*` and `expect.*` codes are; receivers route
    /// on it, and `explain` explains it.
    public var code: FindingCode
    public var severity: Finding.Severity
    /// The associated-domains entry the finding is about, when it is about one.
    public var entry: String?
    /// One line for a person: what is wrong and what to change.
    public var message: String

    public init(code: FindingCode, severity: Finding.Severity, entry: String? = nil, message: String) {
        self.code = code
        self.severity = severity
        self.entry = entry
        self.message = message
    }
}
