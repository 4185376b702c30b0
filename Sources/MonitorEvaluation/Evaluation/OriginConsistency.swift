import AASA

/// Findings that compare the origin's answers with each other: the root path, and Apple's user agent against a
/// plain one.
enum OriginConsistency {
    /// `origin.bot_blocked` when Apple's fetcher gets a different status or meaning than a plain client.
    static func botBlocked(
        apple: FetchObservation, appleEvaluation: LocationEvaluation, plain: FetchObservation
    )
        -> ReportFinding?
    {
        guard let plainResponse = plain.response else { return nil }
        let appleStatus = apple.response?.status
        var differs = appleStatus != plainResponse.status
        var plainHash: String?
        if !differs, plainResponse.status == 200, plainResponse.body != apple.response?.body {
            // Different bytes can still mean the same (a timestamp in a comment): compare meanings only then.
            plainHash = AASAParser.parse(plainResponse.body).canonicalHash
            differs = plainHash != appleEvaluation.canonicalHash
        }
        guard differs else { return nil }
        let appleText =
            appleStatus.map(String.init) ?? (apple.failure.map { "no answer (\($0.kind.rawValue))" } ?? "no answer")
        let what = appleStatus == plainResponse.status ? "a different document" : "\(appleText)"
        return ReportFinding(
            code: .originBotBlocked, severity: .error, source: .wellKnown,
            message: "Apple's fetcher (\(apple.userAgent)) gets \(what) while a plain client gets "
                + "\(plainResponse.status): a WAF or bot rule treats Apple differently — allow the user agent "
                + "AASA-Bot/1.0.0 on this path",
            detail: [
                "apple_user_agent": .string(apple.userAgent), "apple_status": .optional(appleStatus),
                "apple_error": .optional(apple.failure?.kind.rawValue), "plain_user_agent": .string(plain.userAgent),
                "plain_status": .int(plainResponse.status), "apple_hash": .optional(appleEvaluation.canonicalHash),
                "plain_hash": .optional(plainHash),
            ])
    }

    /// `origin.root_only` or `origin.root_differs`, when the root path says something about `.well-known`.
    static func rootFindings(
        wellKnown: LocationEvaluation, wellKnownBroken: Bool, root: LocationEvaluation
    )
        -> [ReportFinding]
    {
        guard let rootDocument = root.document else { return [] }
        // Only a valid root file (no errors of its own) while .well-known fails is "root only": when both serve the
        // same broken file, the root path is no way out.
        if wellKnownBroken, !root.findings.contains(where: { $0.severity == .error }),
            root.canonicalHash != wellKnown.canonicalHash
        {
            return [
                ReportFinding(
                    code: .originRootOnly, severity: .error, source: .wellKnown,
                    message: "only the root path /apple-app-site-association serves a valid file, but Apple's CDN "
                        + "reads /.well-known/apple-app-site-association: serve the file there",
                    detail: ["root_hash": .optional(root.canonicalHash)])
            ]
        }
        if wellKnownBroken { return [] }
        guard let document = wellKnown.document, wellKnown.canonicalHash != root.canonicalHash else { return [] }
        let diff = AASADiff.compare(document, rootDocument)
        return [
            ReportFinding(
                code: .originRootDiffers, severity: .warning, source: .root,
                message: "the root path serves a file of a different meaning than .well-known "
                    + "(\(diff.changes.first?.summary ?? "they differ")); Apple reads .well-known — remove the root "
                    + "file or make it the same",
                detail: [
                    "well_known_hash": .optional(wellKnown.canonicalHash), "root_hash": .optional(root.canonicalHash),
                    "changes": .array(diff.changes.prefix(20).map { .string($0.summary) }),
                ])
        ]
    }
}
