import AASA
import Foundation

/// The findings about Apple's copy, with Apple's own words where it gives any.
enum CDNFinding {
    /// `cdn.missing`: the CDN answered 404, with Apple's reason verbatim.
    static func missing(_ headers: CDNHeaders) -> ReportFinding {
        var detail: FindingDetail = [
            "apple_failure_reason": .optional(headers.failureReason?.raw),
            "apple_failure_code": .optional(headers.failureReason?.code),
            "apple_failure_details": headers.failureDetails ?? .null,
            "apple_from": .array(headers.from.map(DetailValue.string)),
            "apple_try_direct": .optional(headers.tryDirect),
            "age": .optional(headers.age),
        ]
        if let maxAge = headers.maxAge { detail["max_age"] = .int(maxAge) }
        let reason = headers.failureReason.map { ": Apple says \($0.raw)" } ?? " (Apple gave no reason)"
        return ReportFinding(
            code: .cdnMissing, severity: .error, source: .cdn,
            message: "Apple's CDN has no copy of the file\(reason); devices cannot open universal links for this "
                + "domain until Apple fetches it again — fix the origin and wait for Apple's next refresh",
            detail: detail)
    }

    /// `cdn.only`: the origin is broken but Apple still serves a copy.
    static func only(hash: String, expectedRefresh: Date?, expiresAt: Date?, now: Date) -> ReportFinding {
        ReportFinding(
            code: .cdnOnly, severity: .error, source: .cdn,
            message: "the origin is broken but Apple still serves a copy: devices keep working only until Apple's "
                + "next refresh" + (CDNExpiry.phrase(expiresAt, now: now).map { " (its cached copy \($0))" } ?? "")
                + " — fix the origin now",
            detail: ["cdn_hash": .string(hash), "expected_refresh": .optional(expectedRefresh.map(RFC3339.string))])
    }

    /// `cdn.stale`: Apple's copy differs in meaning from the origin.
    ///
    /// A difference that cannot change behaviour (only `comment` or unknown keys) is `info`. Otherwise a warning,
    /// which becomes an error once it has lasted `staleAfter`: Apple usually refreshes within a day.
    static func stale(
        _ diff: DocumentDiff,
        since: Date,
        expectedRefresh: Date?,
        expiresAt: Date?,
        settings: EvaluationSettings,
        now: Date
    ) -> ReportFinding {
        let age = max(0, now.timeIntervalSince(since))
        let severity: ReportFinding.Severity =
            !diff.canChangeBehavior ? .info : (age >= settings.staleAfter ? .error : .warning)
        let shown = diff.changes.prefix(20)
        let summary = diff.changes.first?.summary ?? "the documents differ"
        var message = "Apple's copy differs from the origin (\(summary)"
        if diff.changes.count > 1 { message += ", and \(diff.changes.count - 1) more" }
        message += ")"
        if let expiry = CDNExpiry.phrase(expiresAt, now: now) {
            message += "; its cached copy \(expiry), Apple may refresh after that"
        }
        if !diff.canChangeBehavior { message += "; the difference cannot change which URLs open the app" }
        return ReportFinding(
            code: .cdnStale, severity: severity, source: .cdn, message: message,
            detail: [
                "since": .string(RFC3339.string(since)),
                "stale_seconds": .double(age),
                "expected_refresh": .optional(expectedRefresh.map(RFC3339.string)),
                "origin_hash": .string(diff.hashB),
                "cdn_hash": .string(diff.hashA),
                "can_change_behavior": .bool(diff.canChangeBehavior),
                "changes": .array(shown.map { .string($0.summary) }),
                "changes_total": .int(diff.changes.count),
            ])
    }
}
