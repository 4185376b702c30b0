/// A finding code: the stable dotted id every output carries (`origin.bot_blocked`), with everything a person
/// needs to act on it.
///
/// Codes are declared only as `static let` members of this type (async-http-client's `HTTPClientError` style), so
/// a code is never a string typed twice: findings, alert keys, events, the chat "What to do" line, `explain` and the
/// man page all read the same member. The one other way to get a code is reading a stored row (`init(storedID:)`),
/// which keeps an id this version does not declare as an unregistered code rather than failing.
///
/// The members that a document's own bytes can raise live in this module (the parser and lint emit them), and so do
/// the app reader's (`app.*`, raised by AppClaims); the monitor's transport, CDN, expectation and own (`monitor.*`)
/// codes, and the list of every code (`FindingCode.all`), live in MonitorCore. Ids are public interface: add codes freely, never rename or reuse one.
public struct FindingCode: Sendable, Hashable, Comparable, CustomStringConvertible {
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
        /// A condition of the monitor itself (`monitor.*`): its host's network, Apple's CDN seen from it, its
        /// resources or its database. Never a domain's problem: a domain finding only names one as its cause.
        case monitor
        /// What an app's entitlements claim (`app.*`), read by the app reader. Never a domain's finding either: an
        /// `expect.app_claim` finding names one as its `app_code`.
        case app
    }

    /// Everything a code says about itself, in one shared immutable box: findings, alert keys and events copy a
    /// code on every check, and a box is one pointer to copy and compare instead of five strings.
    private final class Definition: Sendable {
        let id: String
        let family: Family
        let severity: Finding.Severity
        let escalatesTo: Finding.Severity?
        let concernsContent: Bool
        let isRegistered: Bool
        let meaning: String
        let whyAppleCares: String
        let fix: String
        let example: String

        init(
            id: String, family: Family, severity: Finding.Severity, escalatesTo: Finding.Severity?,
            concernsContent: Bool, isRegistered: Bool, meaning: String, whyAppleCares: String, fix: String,
            example: String
        ) {
            self.id = id
            self.family = family
            self.severity = severity
            self.escalatesTo = escalatesTo
            self.concernsContent = concernsContent
            self.isRegistered = isRegistered
            self.meaning = meaning
            self.whyAppleCares = whyAppleCares
            self.fix = fix
            self.example = example
        }
    }

    private let definition: Definition

    /// The dotted id, as in JSON, webhooks, metrics labels and alert identities.
    public var id: String { definition.id }
    public var family: Family { definition.family }
    /// The severity findings of this code start with.
    public var severity: Finding.Severity { definition.severity }
    /// The severity the finding grows to when the problem gets worse (a certificate in its last days, an answer past
    /// Apple's budget, a CDN copy stale past its grace), or `nil` when it keeps `severity`.
    public var escalatesTo: Finding.Severity? { definition.escalatesTo }
    /// True when the problem lies in a file's content, so an alert on it can only pass on a copy that was read: an
    /// origin that times out says nothing about whether a BOM or an `expect.url` failure is gone.
    public var concernsContent: Bool { definition.concernsContent }
    /// False for a code read from a stored row that this version does not declare (see `init(unregistered:)`).
    public var isRegistered: Bool { definition.isRegistered }
    /// One line: what the code means.
    public var meaning: String { definition.meaning }
    /// Why Apple's fetcher or the devices care.
    public var whyAppleCares: String { definition.whyAppleCares }
    /// One short instruction a person can act on (the chat "What to do" line).
    public var fix: String { definition.fix }
    /// A typical finding message or situation, so a reader recognises it.
    public var example: String { definition.example }

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
        definition = Definition(
            id: family.rawValue + "." + name, family: family, severity: severity, escalatesTo: escalatesTo,
            concernsContent: concernsContent, isRegistered: true, meaning: meaning, whyAppleCares: whyAppleCares,
            fix: fix, example: example)
    }

    /// A code this version does not declare, read from a stored row (a report, an alert state, an outbox event)
    /// written by another version: it keeps its id, so the row is read, shown, matched and written back as it was,
    /// and never stops the daemon.
    ///
    /// Its family is the one its id starts with (`origin` when none matches); it concerns no content (an alert on
    /// it resolves at any check of its source, as it did before the code was known); its advice is the general one.
    package init(unregistered id: String) {
        let prefix = id.firstIndex(of: ".").map { String(id[..<$0]) } ?? id
        definition = Definition(
            id: id, family: Family(rawValue: prefix) ?? .origin, severity: .warning, escalatesTo: nil,
            concernsContent: false, isRegistered: false,
            meaning: "A code this version of aasa-monitor does not know: it was written by another version.",
            whyAppleCares: "Unknown to this version.", fix: "Run `aasa-monitor check` on the domain for details.",
            example: id)
    }

    public var description: String { id }

    /// Codes are equal when their ids are: the id is the identity, the texts are documentation. Two copies of one
    /// member share their box, and two registered members never share an id (`init(storedID:)` returns the member
    /// for a known id), so only a comparison involving an unregistered code reads the texts.
    public static func == (lhs: FindingCode, rhs: FindingCode) -> Bool {
        if lhs.definition === rhs.definition { return true }
        if lhs.isRegistered && rhs.isRegistered { return false }
        return lhs.id == rhs.id
    }

    /// By id, as the text codes sorted before they were typed (reports and alert keys keep that order).
    public static func < (lhs: FindingCode, rhs: FindingCode) -> Bool { lhs.id < rhs.id }

    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}
