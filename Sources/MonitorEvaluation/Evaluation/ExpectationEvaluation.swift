import AASA
import Foundation

/// Checks what the team expects against one copy of the file (the origin's or Apple's), each reported on its copy.
enum ExpectationEvaluation {
    /// The `expect.*` findings of `expectations` on `document`, reported with `source` (the copy).
    static func findings(
        _ expectations: Expectations,
        document: AASADocument,
        domain: String,
        source: FindingSource
    ) -> [ReportFinding] {
        let copy = source == .cdn ? "cdn" : "origin"
        var findings: [ReportFinding] = []
        // A developer- or managed-mode claim is fetched by devices from the origin: Apple's copy does not matter.
        for app in expectations.apps where !(source == .cdn && app.originOnly) {
            let listed = listedApps(document, service: app.service)
            guard !listed.contains(app.appID) else { continue }
            var detail: FindingDetail = [
                "service": .string(app.service), "app": .string(app.appID), "copy": .string(copy),
            ]
            var message =
                "\(app.appID) is not listed in \(app.service) on the \(copy == "cdn" ? "CDN" : "origin") copy: add it "
                + "to the file"
            if let teams = otherTeams(listed, than: app.appID) {
                message +=
                    "; the file lists apps of team \(teams) only, and this app is of team "
                    + "\(teamID(of: app.appID)): did the app move to another team?"
            }
            if let claimedBy = app.claimedBy {
                message += " (claimed by \(claimedBy))"
                detail["claimed_by"] = .string(claimedBy)
            }
            findings.append(
                ReportFinding(
                    code: .expectAppMissing, severity: .error, source: source, message: message, detail: detail,
                    subject: app.service == "applinks" ? app.appID : "\(app.service):\(app.appID)"))
        }
        guard !expectations.urls.isEmpty else { return findings }
        let matcher = URLMatcher(document: document)
        for expected in expectations.urls {
            if let finding = urlFinding(expected, matcher: matcher, domain: domain, source: source, copy: copy) {
                findings.append(finding)
            }
        }
        return findings
    }

    /// `finding`, an expectation Apple's copy fails while the origin satisfies it, as what it is: Apple's copy is
    /// older than the file. A warning caused by `cdn.stale` (so it never alerts on its own, and the verdict is
    /// `cdn_stale`, exit 3), saying to wait for Apple's refresh rather than to change the file.
    static func lagging(_ finding: ReportFinding, expiresAt: Date?, now: Date) -> ReportFinding {
        var lagging = finding
        lagging.severity = .warning
        lagging.detail["lagging"] = .bool(true)
        let expiry = CDNExpiry.phrase(expiresAt, now: now).map { " (\($0))" } ?? ""
        let what: String
        if finding.has(.expectAppMissing) {
            let app = finding.detail["app"]?.stringValue ?? finding.subject
            let service = finding.detail["service"]?.stringValue ?? "applinks"
            what = "\(app) is not yet listed in \(service) on Apple's copy: the origin lists it"
        } else {
            let url = finding.detail["url"]?.stringValue ?? finding.subject
            let decision = finding.detail["decision"]?.stringValue.flatMap(MatchDecision.init(rawValue:))
            let outcome = decision.map(phrase) ?? "gets another decision"
            what = "\(url) \(outcome) on Apple's copy: the origin already gives the expected decision"
        }
        lagging.message = "\(what); Apple's copy\(expiry) does not yet — wait for Apple's refresh"
        lagging.causedBy = FindingCause(code: .cdnStale, source: .cdn)
        return lagging
    }

    private static func urlFinding(
        _ expected: ExpectedURL,
        matcher: URLMatcher,
        domain: String,
        source: FindingSource,
        copy: String
    ) -> ReportFinding? {
        var detail: FindingDetail = [
            "url": .string(expected.url), "app": .string(expected.appID), "copy": .string(copy),
            "expected": .string(expected.decision.rawValue),
        ]
        let outcome: MatchOutcome
        do {
            outcome = try matcher.decide(url: expected.url, appID: expected.appID, domain: domain)
        } catch {
            detail["decision"] = .null
            return ReportFinding(
                code: .expectURL, severity: .error, source: source,
                message: "\(expected.url) cannot be evaluated: \(error.reason)", detail: detail, subject: expected.url)
        }
        if outcome.decision == .undecided {
            detail["decision"] = .string(outcome.decision.rawValue)
            return ReportFinding(
                code: .expectURL, severity: .error, source: source,
                message:
                    "\(expected.url) cannot be evaluated: \(outcome.reason ?? "pattern too large to decide safely")",
                detail: detail, subject: expected.url)
        }
        guard !holds(expected.decision, outcome.decision) else { return nil }
        detail["decision"] = .string(outcome.decision.rawValue)
        if let rule = outcome.rule {
            detail["rule"] = .object([
                "json_path": .string(rule.jsonPath), "entry": .int(rule.entry), "index": .int(rule.index),
                "exclude": .bool(rule.exclude),
            ])
        }
        let ruleText = outcome.rule.map { " by the rule at \($0.jsonPath)" } ?? ""
        return ReportFinding(
            code: .expectURL, severity: .error, source: source,
            message: "\(expected.url) for \(expected.appID) \(phrase(outcome.decision))\(ruleText) on the "
                + "\(copy == "cdn" ? "CDN" : "origin") copy, expected \(wanted(expected.decision))",
            detail: detail, subject: expected.url)
    }

    /// What a URL gets, in words: `is matched` (by the rule at …), `is excluded`, `matches no rule`.
    static func phrase(_ decision: MatchDecision) -> String {
        switch decision {
        case .match: "is matched"
        case .exclude: "is excluded"
        case .noMatch: "matches no rule"
        case .undecided: "cannot be decided"
        }
    }

    /// What the expectation asked for, after "expected": `to match`, `to be excluded`, `to match no rule`.
    static func wanted(_ decision: ExpectedDecision) -> String {
        switch decision {
        case .match: "to match"
        case .exclude: "to be excluded"
        case .noMatch: "to match no rule"
        case .notMatch: "not to open the app"
        }
    }

    private static func holds(_ expected: ExpectedDecision, _ decision: MatchDecision) -> Bool {
        switch expected {
        case .match: decision == .match
        case .exclude: decision == .exclude
        case .noMatch: decision == .noMatch
        case .notMatch: decision == .exclude || decision == .noMatch
        }
    }

    /// The Team ID prefix of an app ID (`ABCDE12345` of `ABCDE12345.com.example.app`).
    static func teamID(of appID: String) -> String {
        String(appID.prefix { $0 != "." })
    }

    /// The teams the listed apps belong to, when there are some and none is `appID`'s own team: the hint that an
    /// app moved to another team (its app ID changed with it) and the file still names the old one.
    static func otherTeams(_ listed: Set<String>, than appID: String) -> String? {
        let teams = Set(listed.map(teamID(of:))).filter { !$0.isEmpty }
        guard !teams.isEmpty, !teams.contains(teamID(of: appID)) else { return nil }
        return teams.sorted().prefix(3).joined(separator: ", ")
    }

    /// The `expect.app_claim` findings of what an app's entries say about the domain.
    static func claimFindings(_ expectations: Expectations) -> [ReportFinding] {
        expectations.claimNotes.map { note in
            ReportFinding(
                code: .expectAppClaim, severity: note.isError ? .error : .info, source: .wellKnown,
                message: "\(note.message) (claimed by \(note.claimedBy))",
                detail: ["app_code": .string(note.code.id), "claimed_by": .string(note.claimedBy)],
                subject: note.claimedBy)
        }
    }

    /// The app IDs a service lists: `applinks` details (and a legacy `apps` list), or another service's `apps`.
    static func listedApps(_ document: AASADocument, service: String) -> Set<String> {
        switch service {
        case "applinks":
            guard let applinks = document.applinks else { return [] }
            return Set(applinks.details.flatMap(\.appIDs))
        case "webcredentials": return Set(document.webcredentials?.apps ?? [])
        case "appclips": return Set(document.appclips?.apps ?? [])
        case "activitycontinuation": return Set(document.activitycontinuation?.apps ?? [])
        default:
            guard case .array(let values)? = document.json[service]?["apps"] else { return [] }
            return Set(values.compactMap { if case .string(let app) = $0 { app } else { nil } })
        }
    }
}

extension ReportFinding {
    /// Whether `other` is the same expectation failing on another copy: same code, subject and app.
    func sameExpectation(as other: ReportFinding) -> Bool {
        code == other.code && subject == other.subject && detail["app"] == other.detail["app"]
    }
}
