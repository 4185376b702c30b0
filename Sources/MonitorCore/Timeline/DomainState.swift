import AASA
import Foundation
import MonitorEvaluation

/// What the monitor currently believes about one domain, carried from check to check.
///
/// The store keeps one per domain and `status` reads it, so the "since" of every fact (verdict, open finding,
/// CDN staleness) survives restarts. It changes only through `DomainStateTransition.apply(previous:report:)`.
public struct DomainState: Sendable, Hashable, Codable {
    public var domain: String
    public var verdict: Verdict
    /// The check time of the first check that gave the current verdict.
    public var verdictSince: Date
    public var lastCheck: Date
    /// Wall time of the last check in seconds.
    public var lastDuration: Double
    /// The last valid origin meaning seen; kept while the origin is broken, so a return to it is not a change.
    public var originHash: String?
    /// When `originHash` was first seen.
    public var originHashSince: Date?
    /// When this monitor saw the origin change to `originHash`; `nil` when it was first seen, since nobody knows
    /// when that meaning appeared. Only a change seen makes Apple's older cached failure an answer about the past.
    public var originChangedAt: Date?
    /// Apple's copy's meaning at the last check that asked the CDN (`nil` when it served none).
    public var cdnHash: String?
    /// The last check that got an answer from the CDN: the resolution of a propagation measurement starts here.
    public var lastCDNCheck: Date?
    /// Whether Apple serves the origin's meaning; `nil` when unknown (never asked, or no valid origin to compare).
    public var cdnInSync: Bool?
    /// The first check that saw Apple's copy differ from the origin's meaning, while it still does. A missing copy
    /// is not stale: see `missingSince`.
    public var staleSince: Date?
    /// The first check that saw Apple serve no usable copy (404, or a body that is not a document), while it
    /// still does.
    public var missingSince: Date?
    /// When Apple's cached copy expires, while it is stale: the earliest moment it can change.
    public var expectedRefresh: Date?
    /// The origin certificate's expiry, from the last check that saw one.
    public var certificateNotAfter: Date?
    /// Seconds from an origin change to Apple serving it, from the last completed propagation.
    public var lastPropagationDelay: Double?
    /// Findings of the last check, each with the first check that saw it (without a gap), sorted by key.
    public var openFindings: [OpenFinding]
    /// An origin change Apple has not caught up with yet.
    public var pendingPropagation: PendingPropagation?
    /// The domain's open incident: set when an alert fires while none did, cleared when none fires.
    public var incident: OpenIncident?

    public init(
        domain: String,
        verdict: Verdict,
        verdictSince: Date,
        lastCheck: Date,
        lastDuration: Double,
        originHash: String? = nil,
        originHashSince: Date? = nil,
        cdnHash: String? = nil,
        lastCDNCheck: Date? = nil,
        cdnInSync: Bool? = nil,
        staleSince: Date? = nil,
        expectedRefresh: Date? = nil,
        certificateNotAfter: Date? = nil,
        lastPropagationDelay: Double? = nil,
        openFindings: [OpenFinding] = [],
        pendingPropagation: PendingPropagation? = nil
    ) {
        self.domain = domain
        self.verdict = verdict
        self.verdictSince = verdictSince
        self.lastCheck = lastCheck
        self.lastDuration = lastDuration
        self.originHash = originHash
        self.originHashSince = originHashSince
        self.cdnHash = cdnHash
        self.lastCDNCheck = lastCDNCheck
        self.cdnInSync = cdnInSync
        self.staleSince = staleSince
        self.expectedRefresh = expectedRefresh
        self.certificateNotAfter = certificateNotAfter
        self.lastPropagationDelay = lastPropagationDelay
        self.openFindings = openFindings
        self.pendingPropagation = pendingPropagation
    }
}

/// A finding that is still present, with the moment it first appeared.
public struct OpenFinding: Sendable, Hashable, Codable {
    /// Code, source and subject: the finding's alert identity within its domain.
    public var key: Key
    public var severity: ReportFinding.Severity
    public var message: String
    public var since: Date
    /// The finding this one follows from at the last check (`ReportFinding.causedBy`), so `status` and the pages
    /// show causes first with their consequences under them. Absent in states written before it was kept: those
    /// findings read as problems of their own until the next check.
    public var causedBy: FindingCause?

    public init(
        key: Key, severity: ReportFinding.Severity, message: String, since: Date, causedBy: FindingCause? = nil
    ) {
        self.key = key
        self.severity = severity
        self.message = message
        self.since = since
        self.causedBy = causedBy
    }

    /// What makes two findings of one domain the same problem across checks: code, source and subject.
    public struct Key: Sendable, Hashable, Codable, Comparable {
        public var code: FindingCode
        public var source: FindingSource
        public var subject: String

        public init(code: FindingCode, source: FindingSource, subject: String) {
            self.code = code
            self.source = source
            self.subject = subject
        }

        enum CodingKeys: String, CodingKey {
            case code, source, subject
        }

        /// Writes the code's id as a plain string, in the synthesized order: a domain's state is written at every
        /// check.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(code.id, forKey: .code)
            try container.encode(source, forKey: .source)
            try container.encode(subject, forKey: .subject)
        }

        public static func < (lhs: Key, rhs: Key) -> Bool {
            (lhs.code.id, lhs.source.rawValue, lhs.subject) < (rhs.code.id, rhs.source.rawValue, rhs.subject)
        }
    }
}

extension ReportFinding {
    /// This finding's identity within its domain.
    public var openKey: OpenFinding.Key { OpenFinding.Key(code: code, source: source, subject: subject) }
}

/// An origin meaning that Apple's copy has not reached yet, and when the monitor first saw it.
public struct PendingPropagation: Sendable, Hashable, Codable {
    public var originHash: String
    public var changedAt: Date

    public init(originHash: String, changedAt: Date) {
        self.originHash = originHash
        self.changedAt = changedAt
    }
}
