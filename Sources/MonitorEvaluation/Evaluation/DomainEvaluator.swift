import AASA
import Foundation

/// Turns what one check saw into findings and a verdict: the pure heart of `check` and the daemon.
///
/// ```swift
/// let report = DomainEvaluator.evaluate(observation, expectations: expectations, settings: .init(), now: now)
/// print(report.verdict)
/// ```
public enum DomainEvaluator {
    /// Evaluates `observation`. `context` carries what earlier checks knew (since when Apple's copy is stale);
    /// `now` is the time of the check, used for certificate expiry and staleness. `memo` spares linting bytes it
    /// has linted before; the report is the same without it.
    public static func evaluate(
        _ observation: DomainObservation,
        expectations: Expectations = Expectations(),
        settings: EvaluationSettings = EvaluationSettings(),
        context: EvaluationContext = EvaluationContext(),
        now: Date,
        memo: LintMemo? = nil
    ) -> DomainReport {
        let wellKnown = LocationEvaluation.evaluate(
            observation.wellKnown, source: .wellKnown, settings: settings, now: now, memo: memo)
        var findings = wellKnown.findings
        if let plain = observation.wellKnownPlain,
            let finding = OriginConsistency.botBlocked(
                apple: observation.wellKnown, appleEvaluation: wellKnown, plain: plain)
        {
            findings.append(finding)
        }
        var wellKnownBroken = wellKnown.fails
        var rootFacts: LocationFacts?
        var documents: [String: String] = [:]
        if let hash = wellKnown.canonicalHash, let text = wellKnown.canonicalText { documents[hash] = text }
        if let rootFetch = observation.root {
            let root =
                LocationEvaluation.sameAnswer(rootFetch, observation.wellKnown)
                ? LocationEvaluation.reusing(wellKnown, for: rootFetch, source: .root, settings: settings, now: now)
                : LocationEvaluation.evaluate(rootFetch, source: .root, settings: settings, now: now, memo: memo)
            rootFacts = root.facts
            // The root path is legacy: its problems matter only when .well-known fails or the root serves a file.
            if wellKnownBroken || root.servesFile { findings += root.findings }
            findings += OriginConsistency.rootFindings(
                wellKnown: wellKnown, wellKnownBroken: wellKnownBroken, root: root)
        }
        wellKnownBroken = findings.contains(where: isOriginBreaking)
        var originExpectations: [ReportFinding] = []
        findings += ExpectationEvaluation.claimFindings(expectations)
        if let document = wellKnown.document, !expectations.isEmpty {
            originExpectations = ExpectationEvaluation.findings(
                expectations, document: document, domain: observation.domain, source: .wellKnown)
            findings += originExpectations
        }

        var cdnFacts: CDNFacts?
        var cdnDocument: AASADocument?
        var diff: DocumentDiff?
        if let cdnFetch = observation.cdn {
            let cdn = CDNEvaluation.evaluate(
                cdnFetch, origin: wellKnown, originBroken: wellKnownBroken, settings: settings, context: context,
                now: now, memo: memo)
            findings += cdn.findings
            cdnFacts = cdn.facts
            diff = cdn.diff
            cdnDocument = cdn.document
            if let hash = cdn.facts.canonicalHash, let text = cdn.canonicalText { documents[hash] = text }
            if let copy = cdn.document, !expectations.isEmpty {
                let onCopy = ExpectationEvaluation.findings(
                    expectations, document: copy, domain: observation.domain, source: .cdn)
                // A copy that differs from a valid origin is older than it: what the origin already satisfies,
                // Apple's copy lacks only until Apple's refresh. That is `cdn.stale`, not a failed expectation.
                let copyLags =
                    wellKnown.document != nil && cdn.facts.canonicalHash != nil
                    && cdn.facts.canonicalHash != wellKnown.canonicalHash
                findings += onCopy.map { finding in
                    guard copyLags, !originExpectations.contains(where: { $0.sameExpectation(as: finding) }) else {
                        return finding
                    }
                    return ExpectationEvaluation.lagging(finding, expiresAt: cdn.facts.expiresAt, now: now)
                }
            }
        }
        // Apple's answer cached before the origin's last change describes the origin as it was: while the origin
        // is fine now, that is Apple lagging (`cdn.missing` saying so), not Apple's diagnosis of the origin.
        let cachedBeforeChange = CachedFailure.of(
            cdn: cdnFacts, originSince: context.originSince, wellKnown: observation.wellKnown,
            checkStartedAt: observation.startedAt, now: now)
        if let cachedBeforeChange, !findings.contains(where: isOriginBreaking) {
            findings = findings.map {
                $0.has(.cdnMissing) ? cachedBeforeChange.explain($0, expiresAt: cdnFacts?.expiresAt, now: now) : $0
            }
        }
        // Apple's fetcher's view of the origin matters only to devices that read Apple's copy.
        if !expectations.originOnly, let cdnFacts, let reason = cdnFacts.appleFailureReason,
            findings.contains(where: { $0.has(.cdnMissing) }), cachedBeforeChange == nil,
            FindingCauses.originCause(of: reason, in: findings) == nil,
            let diagnosis = AppleDiagnosis.finding(reason: reason, wellKnown: wellKnown.facts, cdn: cdnFacts, now: now)
        {
            findings.append(diagnosis)
        }
        if expectations.originOnly { findings = findings.map(ClaimEvaluation.informOnly) }
        findings.sort(by: displayOrder)
        findings = FindingCauses.apply(
            findings,
            context: FindingCauses.Context(
                cdnSameMeaning: cdnFacts?.canonicalHash != nil && cdnFacts?.canonicalHash == wellKnown.canonicalHash,
                rootSameMeaning: rootFacts?.canonicalHash != nil && rootFacts?.canonicalHash == wellKnown.canonicalHash,
                appleReason: cdnFacts?.appleFailureReason))
        if HostNetwork.failedAlike(observation.wellKnown, observation.cdn) {
            findings = blameHostNetwork(findings)
        }
        return DomainReport(
            domain: observation.domain,
            checkedAt: now,
            durationSeconds: max(0, observation.finishedAt.timeIntervalSince(observation.startedAt)),
            verdict: verdict(for: findings, cdnAsked: observation.cdn != nil),
            findings: findings,
            origin: OriginFacts(
                wellKnown: wellKnown.facts, plainStatus: observation.wellKnownPlain?.response?.status, root: rootFacts),
            cdn: cdnFacts,
            diff: diff,
            documents: documents,
            claims: ClaimEvaluation.checks(expectations, origin: wellKnown.document, cdn: cdnDocument),
            originOnly: expectations.originOnly ? true : nil)
    }

    /// The verdict of a set of findings, the first that applies: an error on the origin's `.well-known` (origin or
    /// content) is `origin_broken`; then an `expect.*` error is `expectation_failed`; `cdn.missing` or `cdn.invalid` is
    /// `cdn_missing`; `cdn.stale` is `cdn_stale`; an unreachable or unasked CDN is `unknown`; else `ready`.
    ///
    /// A `cdn.stale` of severity `info` (only comments or unknown keys differ) does not hold a release back: it
    /// cannot change which URLs open the app. Nor does any `cdn.*` finding that is information: Apple's copy of a
    /// domain that devices read from the origin only (`Expectations.originOnly`).
    public static func verdict(for findings: [ReportFinding], cdnAsked: Bool) -> Verdict {
        if findings.contains(where: isOriginBreaking) { return .originBroken }
        // A lagging copy's expectation is a warning under `cdn.stale`: the file is right, Apple is late.
        if findings.contains(where: { $0.code.family == .expectation && $0.severity == .error }) {
            return .expectationFailed
        }
        if findings.contains(where: isCDNMissing) { return .cdnMissing }
        if findings.contains(where: { $0.has(.cdnStale) && $0.severity != .info }) { return .cdnStale }
        if !cdnAsked || findings.contains(where: isCDNUnreachable) { return .unknown }
        return .ready
    }

    /// `cdn.missing` or `cdn.invalid` that is not information.
    package static func isCDNMissing(_ finding: ReportFinding) -> Bool {
        (finding.has(.cdnMissing) || finding.has(.cdnInvalid)) && finding.severity > .info
    }

    /// `cdn.unreachable` that is not information.
    package static func isCDNUnreachable(_ finding: ReportFinding) -> Bool {
        finding.has(.cdnUnreachable) && finding.severity > .info
    }

    /// An error-severity origin or content finding on `.well-known`: Apple would refuse the file. Not one caused by
    /// this host's own network (`HostNetwork`): that says nothing about the origin.
    package static func isOriginBreaking(_ finding: ReportFinding) -> Bool {
        finding.source == .wellKnown && finding.severity == .error
            && [.origin, .document].contains(finding.code.family)
            && finding.causedBy?.code != FindingCode.monitorNetwork
    }

    /// When the origin and Apple's CDN host both failed DNS or connect, the origin's transport findings are caused
    /// by this host's network, and say so instead of telling the domain's owner to publish an address.
    static func blameHostNetwork(_ findings: [ReportFinding]) -> [ReportFinding] {
        findings.map { finding in
            guard finding.source != .cdn, finding.has(.originDNS) || finding.has(.originConnect) else {
                return finding
            }
            var blamed = finding
            let step = finding.has(.originDNS) ? "resolve" : "connect to"
            blamed.message =
                "could not \(step) the origin, nor Apple's CDN host, from this host: this host's DNS resolver or "
                + "network is the likelier cause, not the domain (\(finding.detail["error"]?.stringValue ?? "no answer"))"
            // The root path's copy of the failure stays caused by the `.well-known` one.
            if finding.source == .wellKnown {
                blamed.causedBy = FindingCause(code: .monitorNetwork, source: .cdn)
            }
            return blamed
        }
    }

    /// Findings grouped by source, errors first, then by code: the order a person reads a report in. The build's
    /// own error (`expect.app_claim`: a claim customers' devices ignore) comes before everything: no file fixes it,
    /// and whatever else is wrong with the domain does not matter to that claim until the build is fixed.
    static func displayOrder(_ a: ReportFinding, _ b: ReportFinding) -> Bool {
        let (aBuild, bBuild) = (a.isBuildError, b.isBuildError)
        if aBuild != bBuild { return aBuild }
        if a.source != b.source { return a.source < b.source }
        if a.severity != b.severity { return a.severity > b.severity }
        if a.code != b.code { return a.code < b.code }
        return a.subject < b.subject
    }
}

extension ReportFinding {
    /// An error of the app's build itself (`expect.app_claim`), which no change to a file can fix.
    var isBuildError: Bool { has(.expectAppClaim) && severity == .error }
}
