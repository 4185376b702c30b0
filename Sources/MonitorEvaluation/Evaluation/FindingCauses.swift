import AASA
import Foundation

/// The cause rules: which findings of a check follow from another one, and which are one problem seen twice.
///
/// A monitor that reports every symptom cries wolf: one WAF rule becomes four alerts. Alertmanager's inhibition is
/// the model: a finding that follows from another keeps its place in the report, says `caused_by`, and never
/// alerts on its own. The rules, in order:
/// 1. The same problem at several places of one file (a placeholder app ID in three entries) is one finding
///    listing every JSON path (`detail.paths`).
/// 2. While a WAF blocks Apple's fetcher (`origin.bot_blocked`), what Apple's user agent got on `.well-known` (a
///    403, an HTML page) is that block; while `.well-known` fails, every root-path finding (and `origin.root_only`,
///    which says the root path still serves the file) is context, caused by the `.well-known` failure: nobody
///    needs the legacy path.
/// 3. The same content problem on another copy with the same meaning (root path or Apple's CDN) is one problem:
///    the copy's finding is caused by the `.well-known` one, which lists the copies in `detail.also_on`.
/// 4. Apple's miss or failure (`cdn.missing`, `cdn.invalid`) is caused by the origin failure that its
///    `Apple-Failure-Reason` names (a status → `origin.bot_blocked`/`origin.status`/`origin.redirect`, a timeout
///    → `origin.timeout`/`origin.slow`/`origin.apple_failure`, a private address → `origin.private_address`), or
///    without a reason by the origin's main failure. `cdn.only` (Apple still serves a file the origin lost) is
///    caused by the origin's main failure.
enum FindingCauses {
    /// What the rules need to know besides the findings.
    struct Context {
        /// Apple's copy has the same meaning as `.well-known`.
        var cdnSameMeaning: Bool
        /// The root path's file has the same meaning as `.well-known`.
        var rootSameMeaning: Bool
        var appleReason: AppleFailureReason?
    }

    static func apply(_ findings: [ReportFinding], context: Context) -> [ReportFinding] {
        var result = mergePlaces(findings)
        let blocked = result.first { $0.has(.originBotBlocked) && $0.source == .wellKnown }
        // A WAF block explains what Apple's user agent got, a timeout included: it is the cause to point at.
        let primary = blocked ?? mainOriginFailure(result)
        for index in result.indices where result[index].causedBy == nil {
            let finding = result[index]
            if finding.has(.cdnUnreachable) {
                // Apple's CDN not answering us says nothing about the domain: it is the monitor's own condition.
                result[index].causedBy = FindingCause(code: .monitorCDNUnreachable, source: .cdn)
            } else if let blocked, finding.source == .wellKnown, finding.code != blocked.code,
                finding.severity > .info, !TransportFinding.isConnectionFinding(finding)
            {
                // What Apple's user agent got (a 403, an HTML page) is the block itself, seen from the fetcher.
                result[index].causedBy = FindingCause(code: blocked.code, source: .wellKnown)
            } else if finding.source == .root || finding.has(.originRootOnly), let primary,
                primary.code != finding.code || primary.source != finding.source
            {
                // `origin.root_only` says where the file still is: it is the `.well-known` failure's context, one
                // incident with it, not a second alert.
                result[index].causedBy = FindingCause(code: primary.code, source: primary.source)
            } else if let twin = sameProblemOnWellKnown(finding, in: result, context: context) {
                result[index].causedBy = FindingCause(code: twin.code, source: .wellKnown, relation: .sameProblem)
            } else if finding.source == .cdn, finding.has(.cdnMissing) || finding.has(.cdnInvalid),
                let cause = originCause(of: context.appleReason, in: result) ?? primary
            {
                result[index].causedBy = FindingCause(code: cause.code, source: cause.source)
            } else if finding.has(.cdnOnly), let primary {
                // Apple still serving the file the origin lost is what the origin failure looks like from Apple.
                result[index].causedBy = FindingCause(code: primary.code, source: primary.source)
            }
        }
        return noteCopies(result)
    }

    /// Origin failures in the order a person fixes them: reachability, then what the server answers, then content.
    static let failureOrder: [FindingCode] = [
        .originDNS, .originConnect, .originTimeout, .originTLSUntrusted, .originTLSExpired, .originTLSHostname,
        .originTLSProtocol, .originPrivateAddress, .originBotBlocked, .originAppleFailure, .originRedirect,
        .originStatus, .originSlow,
    ]

    /// The `.well-known` failure everything else follows from: the first of `failureOrder`, else the first error.
    static func mainOriginFailure(_ findings: [ReportFinding]) -> ReportFinding? {
        let breaking = findings.filter { DomainEvaluator.isOriginBreaking($0) && $0.causedBy == nil }
        for code in failureOrder {
            if let finding = breaking.first(where: { $0.has(code) }) { return finding }
        }
        return breaking.first
    }

    /// The origin finding that Apple's reason names, if we observed one.
    static func originCause(of reason: AppleFailureReason?, in findings: [ReportFinding]) -> ReportFinding? {
        guard let family = reason.flatMap(AppleReasonFamily.init) else { return nil }
        let candidates: [FindingCode]
        switch family {
        case .httpStatus: candidates = [.originBotBlocked, .originAppleFailure, .originRedirect, .originStatus]
        case .address: candidates = [.originPrivateAddress, .originDNS, .originAppleFailure]
        case .timeout: candidates = [.originTimeout, .originConnect, .originSlow, .originAppleFailure, .originDNS]
        case .content: candidates = [.originAppleFailure]  // our own content errors are found below, first
        }
        let origin = findings.filter { $0.source == .wellKnown && $0.severity > .info }
        if family == .content {
            // Bad content we fetched ourselves (HTML with 200, JSON nested too deep, a wrong type) fully explains
            // Apple's `SWCERR004xx`: it is the cause, and Apple's reason only confirms it.
            let content = origin.first {
                $0.severity == .error
                    && ($0.has(.originJSON) || $0.has(.originTooLarge)
                        || $0.code.family == .document)
            }
            if let content { return content }
        }
        for code in candidates {
            if let finding = origin.first(where: { $0.has(code) }) { return finding }
        }
        return nil
    }

    /// The `.well-known` finding this copy's finding repeats, when the copy has the same meaning.
    private static func sameProblemOnWellKnown(
        _ finding: ReportFinding, in findings: [ReportFinding], context: Context
    ) -> ReportFinding? {
        let sameMeaning =
            (finding.source == .cdn && context.cdnSameMeaning) || (finding.source == .root && context.rootSameMeaning)
        guard sameMeaning else { return nil }
        return findings.first {
            $0.source == .wellKnown && $0.code == finding.code && $0.subject == finding.subject && $0.causedBy == nil
        }
    }

    /// One finding per (code, source, subject), listing every JSON path where the problem was seen.
    static func mergePlaces(_ findings: [ReportFinding]) -> [ReportFinding] {
        var merged: [ReportFinding] = []
        var indexByKey: [String: Int] = [:]
        for finding in findings {
            guard let path = finding.detail["path"]?.stringValue else {
                merged.append(finding)
                continue
            }
            let key = "\(finding.code)\u{0}\(finding.source.rawValue)\u{0}\(finding.subject)"
            if let index = indexByKey[key] {
                var paths = merged[index].detail["paths"]?.arrayValue ?? []
                paths.append(.string(path))
                merged[index].detail["paths"] = .array(paths)
                merged[index].severity = max(merged[index].severity, finding.severity)
            } else {
                indexByKey[key] = merged.count
                var first = finding
                first.detail["paths"] = .array([.string(path)])
                merged.append(first)
            }
        }
        for index in merged.indices {
            if let count = merged[index].detail["paths"]?.arrayValue?.count, count > 1 {
                merged[index].message += " (seen at \(count) places: see detail.paths)"
            }
        }
        return merged
    }

    /// `detail.also_on` on each `.well-known` finding that other copies repeat.
    private static func noteCopies(_ findings: [ReportFinding]) -> [ReportFinding] {
        var result = findings
        for index in result.indices where result[index].source == .wellKnown {
            let finding = result[index]
            let copies = findings.filter {
                $0.causedBy == FindingCause(code: finding.code, source: .wellKnown, relation: .sameProblem)
                    && $0.subject == finding.subject
            }
            if !copies.isEmpty {
                result[index].detail["also_on"] = .array(copies.map { .string($0.source.rawValue) })
            }
        }
        return result
    }
}

/// What an `Apple-Failure-Reason` code blames, by its family (`SWCERR001xx` and so on).
enum AppleReasonFamily {
    /// `SWCERR001xx Bad HTTP Response: 403 Forbidden`: the origin answered Apple with another status.
    case httpStatus
    /// `SWCERR002xx`: the origin's address is private or reserved.
    case address
    /// `SWCERR003xx Timeout`: the origin did not answer Apple in time.
    case timeout
    /// `SWCERR004xx Bad JSON content`: the file Apple got is not valid.
    case content

    init?(_ reason: AppleFailureReason) {
        guard let code = reason.code, code.hasPrefix("SWCERR"), code.count >= 9 else { return nil }
        let digits = code.dropFirst(6)
        switch digits.prefix(3) {
        case "001": self = .httpStatus
        case "002": self = .address
        case "003": self = .timeout
        case "004": self = .content
        default: return nil
        }
    }
}
