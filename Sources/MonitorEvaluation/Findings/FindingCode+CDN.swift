import AASA

extension FindingCode {
    /// The codes about Apple's CDN copy.
    public static let cdn: [FindingCode] = [.cdnUnreachable, .cdnMissing, .cdnStale, .cdnOnly, .cdnInvalid]

    public static let cdnUnreachable = FindingCode(
        .cdn, "unreachable", severity: .warning,
        meaning: "Apple's CDN itself could not be asked (network, TLS, 5xx); this says nothing about the domain.",
        whyAppleCares: "Without Apple's answer there is nothing to compare, so the verdict is `unknown`.",
        fix: "Nothing to fix on the domain; the check retries when Apple's CDN answers again.",
        example: "Apple's CDN answered 503; this says nothing about the domain — the next check asks again")

    public static let cdnMissing = FindingCode(
        .cdn, "missing", severity: .error,
        meaning:
            "Apple's CDN answers 404: it has no copy (the detail carries Apple-Failure-Reason and friends; "
            + "cached_at and origin_changed_at when Apple cached that answer before the origin's file last changed).",
        whyAppleCares: "Devices get their associations from the CDN; without a copy, links open in the browser.",
        fix: "Fix the origin per Apple's reason, then wait for the CDN to fetch it again.",
        example: "Apple's CDN has no copy of the file: Apple says SWCERR00101 Bad HTTP Response: 403 Forbidden")

    public static let cdnStale = FindingCode(
        .cdn, "stale", severity: .warning, escalatesTo: .error,
        meaning: "Apple's copy differs in meaning from the origin (info when only comments or unknown keys differ; "
            + "an error after the configured grace, default 24 h).",
        whyAppleCares: "Devices see Apple's copy, not the origin's, until the CDN refreshes it.",
        fix: "Wait for Apple's CDN to refresh (see the expected refresh); devices see the old file until then.",
        example: "Apple's copy is older than the origin's since 2026-11-23T09:00:00Z; refresh expected in 2 h")

    public static let cdnOnly = FindingCode(
        .cdn, "only", severity: .error,
        meaning: "The origin is broken but Apple still serves a copy.",
        whyAppleCares: "Devices keep working only until Apple's next refresh, then lose the links.",
        fix: "Fix the origin now: devices work only until Apple's CDN refreshes its copy.",
        example: "the origin is broken but Apple still serves a copy: devices keep working only until Apple's next "
            + "refresh — fix the origin now")

    public static let cdnInvalid = FindingCode(
        .cdn, "invalid", severity: .error,
        meaning: "Apple's CDN answered 200 with a body that is not a valid document.",
        whyAppleCares: "Devices receive a file they cannot use.",
        fix: "Fix the origin's file; Apple's copy is not a valid document.",
        example: "Apple's CDN answered 200 with a body that is not a valid document (invalid JSON at line 1, column 1)")
}
