import AASA

/// Parses one associated-domains entry, `SERVICE:DOMAIN[?mode=MODE]`, and says what is wrong with it.
enum DomainClaimParser {
    /// The claim (when it can be checked at all) and the findings about it.
    ///
    /// An unknown service, a bad mode or a missing domain make the entry useless: no claim, an error. A domain
    /// with characters no host name has (control characters, spaces, a path) is kept as a claim, with an error,
    /// so the check shows exactly what the build carries.
    static func parse(_ entry: String) -> (claim: DomainClaim?, findings: [ClaimFinding]) {
        guard let colon = entry.firstIndex(of: ":") else {
            return (nil, [finding(.appInvalidEntry, entry, "'\(entry)' has no service: write SERVICE:DOMAIN")])
        }
        let serviceText = String(entry[..<colon])
        var rest = entry[entry.index(after: colon)...]
        guard let service = AssociatedService(rawValue: serviceText) else {
            let known = AssociatedService.allCases.map(\.rawValue).joined(separator: ", ")
            return (
                nil,
                [
                    finding(
                        .appUnknownService, entry, "'\(serviceText)' is not a service (\(known)); the entry is ignored")
                ]
            )
        }
        var mode = ClaimMode.standard
        if let question = rest.firstIndex(of: "?") {
            let query = rest[rest.index(after: question)...]
            rest = rest[..<question]
            guard query.hasPrefix("mode=") else {
                return (
                    nil,
                    [finding(.appInvalidEntry, entry, "'\(entry)' has a query other than ?mode=; the entry is ignored")]
                )
            }
            let modeText = String(query.dropFirst("mode=".count))
            guard let parsed = ClaimMode(rawValue: modeText), parsed != .standard else {
                return (
                    nil,
                    [
                        finding(
                            .appInvalidMode, entry,
                            "'\(modeText)' is not a mode (developer, managed, developer+managed); the entry is ignored")
                    ]
                )
            }
            mode = parsed
        }
        let domain = String(rest)
        guard !domain.isEmpty else {
            return (nil, [finding(.appInvalidEntry, entry, "'\(entry)' names no domain")])
        }
        let isWildcard = domain.hasPrefix("*.")
        let base = isWildcard ? String(domain.dropFirst(2)) : domain
        var findings: [ClaimFinding] = []
        if let problem = hostProblem(base) {
            findings.append(finding(.appInvalidDomain, entry, "'\(domain)' is not a host name: \(problem)"))
            if base.isEmpty || base.contains("*") { return (nil, findings) }
        }
        let claim = DomainClaim(
            entry: entry, service: service, domain: domain, readDomain: base.lowercased(), isWildcard: isWildcard,
            mode: mode)
        return (claim, findings)
    }

    /// What makes `host` (a wildcard's base, an optional `:port`) no host name, or `nil`.
    private static func hostProblem(_ host: String) -> String? {
        if host.isEmpty { return "nothing after the wildcard" }
        if host.contains("*") { return "a wildcard may only be the first label (*.example.com)" }
        for scalar in host.unicodeScalars {
            if scalar.properties.generalCategory == .control { return "it holds a control character" }
            if scalar == " " || scalar == "/" || scalar == "\\" || scalar == "@" || scalar == "#" {
                return "it holds '\(scalar)'"
            }
        }
        if host.hasPrefix(".") || host.hasSuffix(".") || host.contains("..") { return "it has an empty label" }
        return nil
    }

    private static func finding(_ code: FindingCode, _ entry: String, _ message: String) -> ClaimFinding {
        ClaimFinding(code: code, severity: .error, entry: entry, message: message)
    }
}
