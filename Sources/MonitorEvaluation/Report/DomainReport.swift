import AASA
import Foundation

/// The evaluation of one check of one domain: verdict, findings and the facts behind them.
///
/// What `check --json` prints per domain, what the store keeps and what alerting is fed with.
public struct DomainReport: Sendable, Hashable, Codable {
    public var domain: String
    public var checkedAt: Date
    /// Wall time of the check in seconds.
    public var durationSeconds: Double
    public var verdict: Verdict
    /// Sorted by source, then severity (errors first), then code.
    public var findings: [ReportFinding]
    public var origin: OriginFacts
    /// `nil` when the CDN was not asked in this check.
    public var cdn: CDNFacts?
    /// Origin copy vs. Apple's copy when both are valid and differ in meaning.
    public var diff: DocumentDiff?
    /// Canonical text of each valid document seen, by canonical hash, so the store keeps each meaning once.
    /// Not part of the JSON form: the store keeps documents in their own table, and `--json` shows hashes.
    public var documents: [String: String] = [:]
    /// Each app claim judged (`check --app`, `apps:`), held or not; `nil` (and absent from JSON) when no app
    /// claims the domain.
    public var claims: [ClaimCheck]?
    /// `true` when devices read this domain from the origin only (`Expectations.originOnly`): Apple's copy was
    /// asked, and its findings are information. `nil`, and absent from JSON, otherwise.
    public var originOnly: Bool?

    public init(
        domain: String,
        checkedAt: Date,
        durationSeconds: Double,
        verdict: Verdict,
        findings: [ReportFinding],
        origin: OriginFacts,
        cdn: CDNFacts?,
        diff: DocumentDiff?,
        documents: [String: String],
        claims: [ClaimCheck]? = nil,
        originOnly: Bool? = nil
    ) {
        self.domain = domain
        self.checkedAt = checkedAt
        self.durationSeconds = durationSeconds
        self.verdict = verdict
        self.findings = findings
        self.origin = origin
        self.cdn = cdn
        self.diff = diff
        self.documents = documents
        self.claims = claims
        self.originOnly = originOnly
    }

    /// The origin's canonical hash (the `.well-known` document Apple reads), when it is valid.
    public var originHash: String? { origin.wellKnown.canonicalHash }
    /// Apple's copy's canonical hash, when the CDN serves a valid one.
    public var cdnHash: String? { cdn?.canonicalHash }
}

/// The raw facts of the origin's two locations.
public struct OriginFacts: Sendable, Hashable, Codable {
    /// `.well-known` as Apple's fetcher sees it.
    public var wellKnown: LocationFacts
    /// The status the plain user agent got on `.well-known`, for comparison.
    public var plainStatus: Int?
    public var root: LocationFacts?

    public init(wellKnown: LocationFacts, plainStatus: Int?, root: LocationFacts?) {
        self.wellKnown = wellKnown
        self.plainStatus = plainStatus
        self.root = root
    }
}

/// What one location answered, reduced to what scripts need.
public struct LocationFacts: Sendable, Hashable, Codable {
    public var url: String
    /// `nil` when the fetch failed before a complete answer.
    public var status: Int?
    /// The failure class (`tls.expired`, `timeout`) when there was no complete answer.
    public var error: String?
    public var errorMessage: String?
    public var contentType: String?
    public var bodyBytes: Int?
    public var redirectLocation: String?
    public var canonicalHash: String?
    public var signed: Bool
    public var primaryIP: String?
    public var httpVersion: String?
    public var totalSeconds: Double
    public var certificate: CertificateFacts?

    public init(
        url: String,
        status: Int? = nil,
        error: String? = nil,
        errorMessage: String? = nil,
        contentType: String? = nil,
        bodyBytes: Int? = nil,
        redirectLocation: String? = nil,
        canonicalHash: String? = nil,
        signed: Bool = false,
        primaryIP: String? = nil,
        httpVersion: String? = nil,
        totalSeconds: Double = 0,
        certificate: CertificateFacts? = nil
    ) {
        self.url = url
        self.status = status
        self.error = error
        self.errorMessage = errorMessage
        self.contentType = contentType
        self.bodyBytes = bodyBytes
        self.redirectLocation = redirectLocation
        self.canonicalHash = canonicalHash
        self.signed = signed
        self.primaryIP = primaryIP
        self.httpVersion = httpVersion
        self.totalSeconds = totalSeconds
        self.certificate = certificate
    }
}

/// What Apple's CDN answered, with Apple's own headers parsed.
public struct CDNFacts: Sendable, Hashable, Codable {
    public var url: String
    public var status: Int?
    public var error: String?
    public var errorMessage: String?
    /// `Apple-Failure-Reason`, split into its SWCERR code and text.
    public var appleFailureReason: AppleFailureReason?
    /// `Apple-Failure-Details` parsed as JSON, or the raw text when it is not JSON.
    public var appleFailureDetails: DetailValue?
    /// `Apple-From`, split at commas (a chain of fetch hops).
    public var appleFrom: [String]
    public var appleTryDirect: String?
    public var appleOriginFormat: String?
    /// Every `Apple-*` header plus `Cache-Control`, `Age`, `X-Cache`, `Via`, `Date`, names lower-cased.
    public var headers: [String: String]
    public var age: Int?
    public var maxAge: Int?
    /// When Apple's cached copy expires (check time + max-age − Age): the earliest moment it can change.
    public var expectedRefresh: Date?
    /// When Apple's cached answer expires or expired (check time + max-age − Age, in the past for an answer kept
    /// beyond its max-age): unlike `expectedRefresh`, never moved to the check time, so text can say "expired at".
    public var expiresAt: Date?
    public var canonicalHash: String?
    public var totalSeconds: Double
    /// What was clamped or dropped from Apple's headers because it was out of range (absent when nothing was).
    public var notes: [String]?

    public init(
        url: String,
        status: Int? = nil,
        error: String? = nil,
        errorMessage: String? = nil,
        appleFailureReason: AppleFailureReason? = nil,
        appleFailureDetails: DetailValue? = nil,
        appleFrom: [String] = [],
        appleTryDirect: String? = nil,
        appleOriginFormat: String? = nil,
        headers: [String: String] = [:],
        age: Int? = nil,
        maxAge: Int? = nil,
        expectedRefresh: Date? = nil,
        canonicalHash: String? = nil,
        totalSeconds: Double = 0
    ) {
        self.url = url
        self.status = status
        self.error = error
        self.errorMessage = errorMessage
        self.appleFailureReason = appleFailureReason
        self.appleFailureDetails = appleFailureDetails
        self.appleFrom = appleFrom
        self.appleTryDirect = appleTryDirect
        self.appleOriginFormat = appleOriginFormat
        self.headers = headers
        self.age = age
        self.maxAge = maxAge
        self.expectedRefresh = expectedRefresh
        self.canonicalHash = canonicalHash
        self.totalSeconds = totalSeconds
    }
}

/// `Apple-Failure-Reason: SWCERR00101 Bad HTTP Response: 403 Forbidden`, split.
public struct AppleFailureReason: Sendable, Hashable, Codable {
    /// `SWCERR00101`, or `nil` when the header does not start with a code.
    public var code: String?
    /// The text after the code.
    public var text: String
    /// The header exactly as Apple sent it.
    public var raw: String

    public init(code: String?, text: String, raw: String) {
        self.code = code
        self.text = text
        self.raw = raw
    }
}

extension DomainReport {
    enum CodingKeys: String, CodingKey {
        case domain, verdict, findings, origin, cdn, diff, claims
        case originOnly = "origin_only"
        case checkedAt = "checked_at"
        case durationSeconds = "duration"
    }
}

extension OriginFacts {
    enum CodingKeys: String, CodingKey {
        case wellKnown = "well_known"
        case plainStatus = "plain_status"
        case root
    }
}

extension LocationFacts {
    enum CodingKeys: String, CodingKey {
        case url, status, error, signed, certificate
        case errorMessage = "error_message"
        case contentType = "content_type"
        case bodyBytes = "body_bytes"
        case redirectLocation = "redirect_location"
        case canonicalHash = "canonical_hash"
        case primaryIP = "primary_ip"
        case httpVersion = "http_version"
        case totalSeconds = "total_seconds"
    }
}

extension CDNFacts {
    enum CodingKeys: String, CodingKey {
        case url, status, error, headers, age
        case errorMessage = "error_message"
        case appleFailureReason = "apple_failure_reason"
        case appleFailureDetails = "apple_failure_details"
        case appleFrom = "apple_from"
        case appleTryDirect = "apple_try_direct"
        case appleOriginFormat = "apple_origin_format"
        case maxAge = "max_age"
        case expectedRefresh = "expected_refresh"
        case expiresAt = "expires_at"
        case canonicalHash = "canonical_hash"
        case totalSeconds = "total_seconds"
        case notes
    }
}
