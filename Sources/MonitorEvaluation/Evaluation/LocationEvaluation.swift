import AASA
import Foundation

/// What one origin location (`.well-known` or the root path) gave: its findings, its document if valid, its facts.
struct LocationEvaluation: Sendable {
    var findings: [ReportFinding]
    /// The document when the location answered 200 with a body that parses; `nil` otherwise.
    var document: AASADocument?
    var canonicalHash: String?
    var canonicalText: String?
    var facts: LocationFacts
    /// True when the location answered 200 at all (a file is served, valid or not).
    var servesFile: Bool

    /// True when the location has an error finding: it does not give Apple a usable file.
    var fails: Bool { document == nil || findings.contains { $0.severity == .error } }

    /// The evaluation of a location that served exactly the same answer as `other` (same status and body bytes):
    /// the root path usually serves the `.well-known` file, and parsing and linting it twice is wasted work.
    static func reusing(
        _ other: LocationEvaluation, for fetch: FetchObservation, source: FindingSource, settings: EvaluationSettings,
        now: Date
    ) -> LocationEvaluation {
        var result = other
        result.facts.url = fetch.url
        result.facts.primaryIP = fetch.primaryIP
        result.facts.totalSeconds = fetch.totalSeconds
        result.facts.certificate = fetch.certificate
        // Content findings carry over to the other source; connection findings are this fetch's own.
        let contentOnly = other.findings.filter { !TransportFinding.isConnectionFinding($0) }
        result.findings =
            TransportFinding.connection(of: fetch, source: source, settings: settings, now: now)
            + contentOnly.map { finding in
                var moved = finding
                moved.source = source
                return moved
            }
        return result
    }

    /// Whether two fetches got the same complete 200 answer: content type and body bytes.
    static func sameAnswer(_ a: FetchObservation, _ b: FetchObservation) -> Bool {
        guard let first = a.response, let second = b.response else { return false }
        return first.status == 200 && first.status == second.status
            && first.header("Content-Type") == second.header("Content-Type")
            && first.redirectLocation == second.redirectLocation && first.body == second.body
    }

    /// Evaluates one fetch of an origin location as Apple's fetcher would judge it.
    static func evaluate(
        _ fetch: FetchObservation,
        source: FindingSource,
        settings: EvaluationSettings,
        now: Date,
        memo: LintMemo? = nil
    ) -> LocationEvaluation {
        var facts = LocationFacts(
            url: fetch.url, primaryIP: fetch.primaryIP, totalSeconds: fetch.totalSeconds,
            certificate: fetch.certificate)
        var findings: [ReportFinding] = []
        guard let response = fetch.response else {
            let failure = fetch.failure ?? FetchFailure(kind: .other, message: "no answer")
            facts.error = failure.kind.rawValue
            facts.errorMessage = failure.message
            findings.append(
                TransportFinding.failure(failure, source: source, url: fetch.url, certificate: fetch.certificate))
            return LocationEvaluation(findings: findings, facts: facts, servesFile: false)
        }
        facts.status = response.status
        facts.contentType = response.header("Content-Type")
        facts.bodyBytes = response.body.count
        facts.redirectLocation = response.redirectLocation
        facts.httpVersion = response.httpVersion
        findings += TransportFinding.connection(of: fetch, source: source, settings: settings, now: now)

        guard response.status == 200 else {
            findings.append(TransportFinding.status(response, source: source, url: fetch.url))
            return LocationEvaluation(findings: findings, facts: facts, servesFile: false)
        }
        if let finding = TransportFinding.contentType(facts.contentType, source: source) {
            findings.append(finding)
        }
        let body = memo.linted(response.body)
        let parsed = body.parsed
        facts.signed = parsed.isSigned
        var linted = parsed.findings.map { ReportFinding(linted: $0, source: source) }
        if parsed.document == nil, TransportFinding.looksLikeHTML(response.body) {
            for index in linted.indices where linted[index].has(.originJSON) {
                linted[index].message +=
                    " — the body is an HTML page (a login wall, an error page or an app's "
                    + "index.html fallback): serve the JSON file at this URL"
                linted[index].detail["looks_like"] = "html"
            }
        }
        findings += linted
        var result = LocationEvaluation(findings: findings, facts: facts, servesFile: true)
        if let document = parsed.document, let canonical = body.canonical {
            result.document = document
            result.canonicalHash = canonical.hash
            result.canonicalText = canonical.text
            result.facts.canonicalHash = canonical.hash
        }
        return result
    }
}

extension ReportFinding {
    /// A finding of the AASA core (lint or parser) placed on a source; the JSON path goes into the detail.
    init(linted finding: Finding, source: FindingSource) {
        var detail: FindingDetail = [:]
        if let path = finding.path { detail["path"] = .string(path) }
        self.init(
            code: finding.findingCode, severity: finding.severity, source: source, message: finding.message,
            detail: detail)
    }
}
