import AASA

/// One problem of a domain, in the language JSON output, `status`, webhooks, metrics and logs share: a registered
/// code, severity, where it was seen, one line for a person, and structured detail for scripts and receivers.
public struct ReportFinding: Sendable, Hashable, Codable {
    public typealias Severity = Finding.Severity

    /// A registered code (`origin.redirect`, `cdn.stale`, `expect.url`), written as its id; history written by
    /// another version may hold an unregistered one (`FindingCode(storedID:)`), which still reads and writes back.
    public private(set) var code: FindingCode
    public var severity: Severity
    public var source: FindingSource
    /// One line: what is wrong and what to do about it.
    public var message: String
    public var detail: FindingDetail
    /// The URL or app ID of an `expect.*` finding, empty otherwise: with domain, code and source it names an alert,
    /// so two failing URLs are two alerts.
    public var subject: String
    /// The finding this one follows from, when it is a consequence rather than a problem of its own: a root-path
    /// failure while `.well-known` fails, Apple's miss while the origin refuses Apple, the same content problem on
    /// another copy. A caused finding is shown ("because of …") but never alerts on its own.
    public var causedBy: FindingCause?

    public init(
        code: FindingCode,
        severity: Severity,
        source: FindingSource,
        message: String,
        detail: FindingDetail = [:],
        subject: String = "",
        causedBy: FindingCause? = nil
    ) {
        self.code = code
        self.severity = severity
        self.source = source
        self.message = message
        self.detail = detail
        self.subject = subject
        self.causedBy = causedBy
    }

    enum CodingKeys: String, CodingKey {
        case code, severity, source, message, detail, subject
        case causedBy = "caused_by"
    }

    /// Every key, `caused_by` as `null` when the finding is a problem of its own, so scripts can rely on it.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(code.id, forKey: .code)
        try container.encode(severity, forKey: .severity)
        try container.encode(source, forKey: .source)
        try container.encode(message, forKey: .message)
        try container.encode(detail, forKey: .detail)
        try container.encode(subject, forKey: .subject)
        try container.encode(causedBy, forKey: .causedBy)
    }
}

/// The finding another one follows from: its code, where it was seen, and how they relate (`caused_by` in JSON:
/// `{"code": …, "source": …, "relation": "consequence" | "same_problem"}`).
public struct FindingCause: Sendable, Hashable, Codable {
    public enum Relation: String, Sendable, Hashable, Codable {
        /// This finding follows from the cause (a root-path 404 while `.well-known` fails, Apple's miss).
        case consequence
        /// The same problem seen on another copy or source: one problem, shown where it was seen.
        case sameProblem = "same_problem"
    }

    public var code: FindingCode
    public var source: FindingSource
    public var relation: Relation

    public init(code: FindingCode, source: FindingSource, relation: Relation = .consequence) {
        self.code = code
        self.source = source
        self.relation = relation
    }

    enum CodingKeys: String, CodingKey {
        case code, source, relation
    }

    /// Writes the code's id as a plain string, in the synthesized order: causes are written with every report.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(code.id, forKey: .code)
        try container.encode(source, forKey: .source)
        try container.encode(relation, forKey: .relation)
    }

    /// One line for text output under the finding.
    public var text: String {
        if code.family == .monitor {
            return "no domain alert: the monitor's own trouble, reported once as \(code)"
        }
        switch relation {
        case .consequence: return "because of \(code) on \(source.rawValue): no alert of its own"
        case .sameProblem: return "the same problem as on \(source.rawValue): one alert"
        }
    }
}

/// What makes two findings "the same problem" across checks: an alert is one (domain, code, source, subject).
public struct FindingIdentity: Sendable, Hashable, Codable, Comparable {
    public var domain: String
    public var code: FindingCode
    public var source: FindingSource
    public var subject: String

    public init(domain: String, code: FindingCode, source: FindingSource, subject: String) {
        self.domain = domain
        self.code = code
        self.source = source
        self.subject = subject
    }

    public static func < (lhs: FindingIdentity, rhs: FindingIdentity) -> Bool {
        (lhs.domain, lhs.code.id, lhs.source.rawValue, lhs.subject)
            < (rhs.domain, rhs.code.id, rhs.source.rawValue, rhs.subject)
    }
}

extension ReportFinding {
    /// Whether this finding has `code`.
    public func has(_ code: FindingCode) -> Bool { self.code == code }

    /// This finding's alert identity on `domain`.
    public func identity(domain: String) -> FindingIdentity {
        FindingIdentity(domain: domain, code: code, source: source, subject: subject)
    }
}
