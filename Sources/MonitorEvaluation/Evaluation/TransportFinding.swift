import AASA
import Foundation

/// Findings about how an origin location answered, before its content is read (the `origin.*` codes of
/// `FindingCode.origin`). Every origin finding comes from the fetch with Apple's user agent: that is what Apple sees.
enum TransportFinding {
    /// The finding for a fetch that produced no complete answer.
    static func failure(
        _ failure: FetchFailure,
        source: FindingSource,
        url: String,
        certificate: CertificateFacts?
    ) -> ReportFinding {
        var detail: FindingDetail = ["url": .string(url), "error": .string(failure.message)]
        if let certificate { detail["certificate"] = certificate.detail }
        var (code, advice) = codeAndAdvice(forFailureKind: failure.kind)
        if failure.nameNotFound == true {
            detail["name_not_found"] = .bool(true)
            advice = "the name does not exist (NXDOMAIN): register it or publish an A/AAAA record for it"
        }
        return ReportFinding(
            code: code, severity: .error, source: source,
            message: "\(advice) (\(failure.message))", detail: detail)
    }

    private static func codeAndAdvice(forFailureKind kind: FetchFailure.Kind) -> (FindingCode, String) {
        switch kind {
        case .dns: (.originDNS, "the name does not resolve: publish an A/AAAA record for it")
        case .connect: (.originConnect, "the connection was refused or reset: open port 443 to the internet")
        case .timeout:
            (.originTimeout, "no complete answer in time: Apple's fetcher gives up after about 5 s")
        case .tlsUntrusted:
            (
                .originTLSUntrusted,
                "the certificate chain does not lead to a trusted root: serve the full chain from a public CA"
            )
        case .tlsExpired:
            (.originTLSExpired, "the certificate is expired or not yet valid: renew it")
        case .tlsHostname:
            (.originTLSHostname, "the certificate does not cover this domain: add the name to its SANs")
        case .tlsProtocol:
            (.originTLSProtocol, "the TLS handshake failed: offer TLS 1.2 or newer with a modern cipher")
        case .tooLarge:
            (
                .originTooLarge,
                "the body is over 131072 bytes and Apple rejects it: remove entries or shorten patterns"
            )
        case .other: (.originFetch, "the fetch failed")
        }
    }

    /// Whether `finding` is one of `connection(of:…)`'s: about this fetch's connection, not the answer's content.
    static func isConnectionFinding(_ finding: ReportFinding) -> Bool {
        finding.has(.originSlow) || finding.has(.originPrivateAddress) || finding.has(.originTLSExpiring)
    }

    /// Findings about the connection of a complete answer: slowness, a private address, an expiring certificate.
    static func connection(
        of fetch: FetchObservation,
        source: FindingSource,
        settings: EvaluationSettings,
        now: Date
    ) -> [ReportFinding] {
        var findings: [ReportFinding] = []
        if fetch.totalSeconds > settings.slowThreshold {
            // Past Apple's budget the CDN gives up (SWCERR00301 Timeout) although we got an answer: an error.
            let overBudget = fetch.totalSeconds > settings.appleBudget
            findings.append(
                ReportFinding(
                    code: .originSlow, severity: overBudget ? .error : .warning, source: source,
                    message: String(
                        format: overBudget
                            ? "the answer took %.1f s, longer than Apple's fetcher waits (%.0f s): Apple gives up "
                                + "(SWCERR00301 Timeout) — cache the file or serve it statically"
                            : "the answer took %.1f s; Apple's fetcher gives up near %.0f s (SWCERR00301 Timeout)",
                        fetch.totalSeconds, settings.appleBudget),
                    detail: ["seconds": .double(fetch.totalSeconds), "apple_budget": .double(settings.appleBudget)]))
        }
        if let address = fetch.primaryIP, !fetch.viaConnectTo, NetworkAddress.isPrivateOrReserved(address) {
            findings.append(
                ReportFinding(
                    code: .originPrivateAddress, severity: .error, source: source,
                    message: "the name resolves to \(address), a private or reserved address Apple refuses "
                        + "(SWCERR00202): publish a public address",
                    detail: ["address": .string(address)]))
        }
        if let certificate = fetch.certificate {
            let remaining = certificate.notAfter.timeIntervalSince(now)
            if remaining >= 0, remaining < settings.expiryWarning {
                let days = Int((remaining / 86_400).rounded(.down))
                findings.append(
                    ReportFinding(
                        code: .originTLSExpiring,
                        severity: remaining < settings.expiryCritical ? .error : .warning, source: source,
                        message: "the certificate expires in \(days) day\(days == 1 ? "" : "s") "
                            + "(\(RFC3339.string(certificate.notAfter))): renew it before Apple's next fetch fails",
                        detail: ["not_after": .string(RFC3339.string(certificate.notAfter)), "days_left": .int(days)]
                    ))
            }
        }
        return findings
    }

    /// The finding for a complete answer whose status is not 200.
    static func status(_ response: FetchResponse, source: FindingSource, url: String) -> ReportFinding {
        if (300..<400).contains(response.status) {
            let target = response.redirectLocation ?? response.header("Location")
            return ReportFinding(
                code: .originRedirect, severity: .error, source: source,
                message: "answers \(response.status) → \(target ?? "(no Location)"); Apple never follows "
                    + "redirects: serve the file at this exact URL with 200",
                detail: ["status": .int(response.status), "location": .optional(target)])
        }
        return ReportFinding(
            code: .originStatus, severity: .error, source: source,
            message: "answers \(response.status) instead of 200: serve the file at this URL",
            detail: ["status": .int(response.status), "url": .string(url)])
    }

    /// `origin.content_type` unless the type is `application/json` or `application/pkcs7-mime` (parameters allowed).
    static func contentType(_ value: String?, source: FindingSource) -> ReportFinding? {
        let type = value?.split(separator: ";").first?.trimmingSpaces().lowercased()
        if type == "application/json" || type == "application/pkcs7-mime" { return nil }
        return ReportFinding(
            code: .originContentType, severity: .warning, source: source,
            message: "Content-Type is \(value.map { "'\($0)'" } ?? "missing"); serve application/json",
            detail: ["content_type": .optional(value)])
    }

    /// True when a body is an HTML page: a login wall, an error page or a single-page app's index.
    static func looksLikeHTML(_ body: [UInt8]) -> Bool {
        let start = body.prefix(512).drop(while: { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 })
        let head = String(decoding: start.prefix(16), as: UTF8.self).lowercased()
        return head.hasPrefix("<!doctype html") || head.hasPrefix("<html")
    }
}

extension CertificateFacts {
    /// The certificate as finding detail.
    var detail: DetailValue {
        .object([
            "subject": .string(subject), "issuer": .string(issuer),
            "not_before": .string(RFC3339.string(notBefore)), "not_after": .string(RFC3339.string(notAfter)),
            "subject_alternative_names": .array(subjectAlternativeNames.map(DetailValue.string)),
        ])
    }
}
