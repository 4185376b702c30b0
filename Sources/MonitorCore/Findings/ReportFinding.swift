import AASA

/// One problem of a domain, in the language JSON output, `status`, webhooks, metrics and logs share: a registered
/// code, severity, where it was seen, one line for a person, and structured detail for scripts and receivers.
public struct ReportFinding: Sendable, Hashable, Codable {
    public typealias Severity = Finding.Severity

    /// The id of a registered `FindingCode` (`origin.redirect`, `cdn.stale`, `expect.url`); never renamed or reused.
    /// A string so that history written by another version still reads; new findings take a `FindingCode`.
    public private(set) var code: String
    public var severity: Severity
    public var source: FindingSource
    /// One line: what is wrong and what to do about it.
    public var message: String
    public var detail: FindingDetail
    /// The URL or app ID of an `expect.*` finding, empty otherwise: with domain, code and source it names an alert,
    /// so two failing URLs are two alerts.
    public var subject: String

    public init(
        code: FindingCode,
        severity: Severity,
        source: FindingSource,
        message: String,
        detail: FindingDetail = [:],
        subject: String = ""
    ) {
        self.code = code.id
        self.severity = severity
        self.source = source
        self.message = message
        self.detail = detail
        self.subject = subject
    }
}

/// What makes two findings "the same problem" across checks: an alert is one (domain, code, source, subject).
public struct FindingIdentity: Sendable, Hashable, Codable, Comparable {
    public var domain: String
    public var code: String
    public var source: FindingSource
    public var subject: String

    public init(domain: String, code: String, source: FindingSource, subject: String) {
        self.domain = domain
        self.code = code
        self.source = source
        self.subject = subject
    }

    public static func < (lhs: FindingIdentity, rhs: FindingIdentity) -> Bool {
        (lhs.domain, lhs.code, lhs.source.rawValue, lhs.subject)
            < (rhs.domain, rhs.code, rhs.source.rawValue, rhs.subject)
    }
}

extension ReportFinding {
    /// The registered code, or `nil` for a code from another version's history.
    public var registeredCode: FindingCode? { FindingCode(id: code) }

    /// Whether this finding has `code`.
    public func has(_ code: FindingCode) -> Bool { self.code == code.id }

    /// This finding's alert identity on `domain`.
    public func identity(domain: String) -> FindingIdentity {
        FindingIdentity(domain: domain, code: code, source: source, subject: subject)
    }
}
