import AASA
import Foundation

/// What Apple's CDN answered, judged against the origin (the `cdn.*` codes). Copies are compared by meaning, never
/// by bytes: the CDN re-serializes every file it serves.
struct CDNEvaluation: Sendable {
    var findings: [ReportFinding] = []
    var facts: CDNFacts
    /// Apple's copy, when the CDN serves a valid one: expectations are evaluated on it too.
    var document: AASADocument?
    var canonicalText: String?
    /// Apple's copy against the origin's, when both are valid and differ in meaning.
    var diff: DocumentDiff?

    /// Evaluates the CDN's answer. `origin` is the `.well-known` evaluation; `originBroken` says whether the origin
    /// has an error Apple would refuse (then a served copy is `cdn.only`).
    static func evaluate(
        _ fetch: FetchObservation,
        origin: LocationEvaluation,
        originBroken: Bool,
        settings: EvaluationSettings,
        context: EvaluationContext,
        now: Date,
        memo: LintMemo? = nil
    ) -> CDNEvaluation {
        var result = CDNEvaluation(facts: CDNFacts(url: fetch.url, totalSeconds: fetch.totalSeconds))
        guard let response = fetch.response else {
            let failure = fetch.failure ?? FetchFailure(kind: .other, message: "no answer")
            result.facts.error = failure.kind.rawValue
            result.facts.errorMessage = failure.message
            result.findings.append(
                ReportFinding(
                    code: .cdnUnreachable, severity: .warning, source: .cdn,
                    message: "Apple's CDN could not be asked (\(failure.kind.rawValue): \(failure.message)); this says "
                        + "nothing about the domain — the next check asks again",
                    detail: ["error": .string(failure.kind.rawValue), "error_message": .string(failure.message)]))
            return result
        }
        let headers = CDNHeaders(response)
        result.facts.fill(status: response.status, headers: headers, now: now)
        switch response.status {
        case 200:
            result.evaluateCopy(
                response.body, origin: origin, originBroken: originBroken, settings, context, now, memo: memo)
        case 404:
            result.findings.append(CDNFinding.missing(headers))
        default:
            result.findings.append(
                ReportFinding(
                    code: .cdnUnreachable, severity: .warning, source: .cdn,
                    message: "Apple's CDN answered \(response.status); this says nothing about the domain — the "
                        + "next check asks again",
                    detail: ["status": .int(response.status)]))
        }
        return result
    }

    private mutating func evaluateCopy(
        _ body: [UInt8],
        origin: LocationEvaluation,
        originBroken: Bool,
        _ settings: EvaluationSettings,
        _ context: EvaluationContext,
        _ now: Date,
        memo: LintMemo?
    ) {
        let linted = memo.linted(body)
        let parsed = linted.parsed
        guard let copy = parsed.document, let canonical = linted.canonical else {
            let reason = parsed.findings.first(where: { $0.severity == .error })?.message ?? "it does not parse"
            findings.append(
                ReportFinding(
                    code: .cdnInvalid, severity: .error, source: .cdn,
                    message: "Apple's CDN answered 200 with a body that is not a valid document (\(reason))",
                    detail: ["body_bytes": .int(body.count)]))
            return
        }
        document = copy
        canonicalText = canonical.text
        let hash = canonical.hash
        facts.canonicalHash = hash
        // Lint findings of Apple's copy are reported but never decide the verdict: the origin is what can be fixed.
        findings += parsed.findings.filter { $0.findingCode.family == .document }.map {
            ReportFinding(linted: $0, source: .cdn)
        }
        if originBroken {
            findings.append(
                CDNFinding.only(
                    hash: hash, expectedRefresh: facts.expectedRefresh, expiresAt: facts.expiresAt, now: now))
            return
        }
        guard let originDocument = origin.document, let originHash = origin.canonicalHash, originHash != hash else {
            return
        }
        let difference = AASADiff.compare(copy, originDocument)
        diff = difference
        findings.append(
            CDNFinding.stale(
                difference, since: context.staleSince ?? now, expectedRefresh: facts.expectedRefresh,
                expiresAt: facts.expiresAt, settings: settings, now: now))
    }
}

extension CDNFacts {
    /// Copies the parsed headers in and computes when Apple's cached copy expires.
    mutating func fill(status: Int, headers: CDNHeaders, now: Date) {
        self.status = status
        appleFailureReason = headers.failureReason
        appleFailureDetails = headers.failureDetails
        appleFrom = headers.from
        appleTryDirect = headers.tryDirect
        appleOriginFormat = headers.originFormat
        self.headers = headers.kept
        age = headers.age
        maxAge = headers.maxAge
        notes = headers.notes.isEmpty ? nil : headers.notes
        if let maxAge = headers.maxAge {
            let remaining = TimeInterval(maxAge - (headers.age ?? 0))
            expiresAt = now.addingTimeInterval(remaining)
            expectedRefresh = now.addingTimeInterval(max(0, remaining))
        }
    }
}
