/// A finding code: the stable dotted id every output carries (`origin.bot_blocked`), with everything a person
/// needs to act on it.
///
/// Codes exist only as `static let` members of this type (async-http-client's `HTTPClientError` style), so a code
/// is never a string typed twice: findings, alert rules, the chat "What to do" line, `explain` and the man page
/// all read the same member. The members that a document's own bytes can raise live in this module (the parser and
/// lint emit them); the monitor's transport, CDN and expectation codes, and the list of every code
/// (`FindingCode.all`), live in MonitorCore. Ids are public interface: add codes freely, never rename or reuse one.
public struct FindingCode: Sendable, Hashable, CustomStringConvertible {
    /// The first part of an id: what kind of thing the finding is about.
    public enum Family: String, Sendable, Hashable, CaseIterable {
        /// How the origin answered (`origin.*`), or a problem of the body's bytes as a whole.
        case origin
        /// A problem inside the document (`aasa.*`).
        case document = "aasa"
        /// Apple's CDN copy (`cdn.*`).
        case cdn
        /// An expectation from configuration or `check --expect-…` (`expect.*`).
        case expectation = "expect"
    }

    /// The dotted id, as in JSON, webhooks, metrics labels and alert identities.
    public let id: String
    public let family: Family
    /// The severity findings of this code start with.
    public let severity: Finding.Severity
    /// The severity the finding grows to when the problem gets worse (a certificate in its last days, an answer past
    /// Apple's budget, a CDN copy stale past its grace), or `nil` when it keeps `severity`.
    public let escalatesTo: Finding.Severity?
    /// True when the problem lies in a file's content, so an alert on it can only pass on a copy that was read: an
    /// origin that times out says nothing about whether a BOM or an `expect.url` failure is gone.
    public let concernsContent: Bool
    /// One line: what the code means.
    public let meaning: String
    /// Why Apple's fetcher or the devices care.
    public let whyAppleCares: String
    /// One short instruction a person can act on (the chat "What to do" line).
    public let fix: String
    /// A typical finding message or situation, so a reader recognises it.
    public let example: String

    /// Declares a code `family.name`; only registry members call it.
    package init(
        _ family: Family,
        _ name: String,
        severity: Finding.Severity,
        escalatesTo: Finding.Severity? = nil,
        concernsContent: Bool = false,
        meaning: String,
        whyAppleCares: String,
        fix: String,
        example: String
    ) {
        self.id = family.rawValue + "." + name
        self.family = family
        self.severity = severity
        self.escalatesTo = escalatesTo
        self.concernsContent = concernsContent
        self.meaning = meaning
        self.whyAppleCares = whyAppleCares
        self.fix = fix
        self.example = example
    }

    public var description: String { id }

    /// Codes are equal when their ids are: the id is the identity, the texts are documentation.
    public static func == (lhs: FindingCode, rhs: FindingCode) -> Bool { lhs.id == rhs.id }

    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}
