import AASA

/// The pure reader: bytes in, claims out. The bundle and archive readers (`AppReader`) call these for each
/// executable and for `.entitlements` files; tests and the `check --app` integration may call them directly.
public enum AppClaimsParser {
    /// The most associated-domains entries one binary may carry. Apps claim a handful to a few dozen; every entry
    /// becomes a watched domain, so a signed list of 100,000 would make 100,000 checks.
    public static let maximumDomainEntries = 1_000

    /// The claims of one Mach-O executable (thin or universal) held in memory.
    public static func binary(
        _ bytes: [UInt8], path: String, role: BinaryRole = .app, bundleIdentifier: String? = nil
    ) throws(AppClaimsError) -> BinaryClaims {
        try binary(InMemoryBytes(bytes), path: path, role: role, bundleIdentifier: bundleIdentifier)
    }

    /// The claims of one Mach-O executable read by ranges from `source`.
    public static func binary(
        _ source: some ByteSource, path: String, role: BinaryRole = .app, bundleIdentifier: String? = nil
    ) throws(AppClaimsError) -> BinaryClaims {
        let slices = try MachOReader.slices(of: source)
        return try claims(of: slices, path: path, role: role, bundleIdentifier: bundleIdentifier)
    }

    /// The claims of an `.entitlements` property list (XML or binary), which names no app: `appID`
    /// (`TEAMID.bundle.id`) says which app it is for.
    public static func entitlementsFile(
        _ bytes: [UInt8], path: String, appID: String
    ) throws(AppClaimsError)
        -> BinaryClaims
    {
        guard let parsed = AppID(appID) else {
            throw AppClaimsError(
                .invalidAppID,
                "the app ID '\(appID)' is not TEAMID.bundle.id (a 10-character team ID, a dot, a "
                    + "bundle ID)")
        }
        let entitlements = try PropertyListReader.dictionary(bytes, what: "the entitlements file")
        var result = try build(
            entitlements: entitlements, path: path, role: .app, bundleIdentifier: nil, architectures: [],
            origin: .file, overridingAppID: parsed)
        result.findings.removeAll { $0.code == .appNoEntitlements }
        return result
    }

    /// The claims and findings of the associated-domains entries `entries`, as a build with `isDevelopment`
    /// reads them.
    public static func domainClaims(
        _ entries: [String], isDevelopment: Bool
    ) -> (
        claims: [DomainClaim], findings: [ClaimFinding]
    ) {
        var claims: [DomainClaim] = []
        var seen: Set<DomainClaim> = []
        var findings: [ClaimFinding] = []
        for entry in entries {
            let parsed = DomainClaimParser.parse(entry)
            findings += parsed.findings
            if let claim = parsed.claim {
                if seen.insert(claim).inserted { claims.append(claim) }
                if claim.mode.needsDevelopmentBuild {
                    findings.append(
                        isDevelopment
                            ? ClaimFinding(
                                code: .appDeveloperMode, severity: .info, entry: entry,
                                message: "'\(entry)' works only on devices with associated-domains development "
                                    + "enabled; devices fetch it from the origin, not Apple's CDN")
                            : ClaimFinding(
                                code: .appDeveloperModeInDistribution, severity: .error, entry: entry,
                                message: "'\(entry)' is in a distribution build (get-task-allow is not true): "
                                    + "customers' devices ignore ?mode=developer; claim the domain without a mode"))
                }
            }
        }
        return (claims, findings)
    }

    // MARK: Building

    static func claims(
        of slices: [MachOSlice], path: String, role: BinaryRole, bundleIdentifier: String?
    )
        throws(AppClaimsError) -> BinaryClaims
    {
        var read: [(architecture: String, entitlements: [String: EntitlementValue]?, origin: EntitlementsOrigin?)] =
            []
        for slice in slices {
            guard let payload = slice.preferred else {
                read.append((slice.architecture, nil, nil))
                continue
            }
            let place: String
            switch payload.format {
            case .xml, .der: place = "the entitlements blob"
            case .sectionXML: place = "the __TEXT,__entitlements section"
            case .sectionDER: place = "the __TEXT,__ents_der section"
            }
            let what = slices.count > 1 ? "\(place) of slice \(slice.architecture)" : place
            let entitlements: [String: EntitlementValue]
            switch payload.format {
            case .xml, .sectionXML: entitlements = try PropertyListReader.dictionary(payload.bytes, what: what)
            case .der, .sectionDER: entitlements = try DEREntitlements.dictionary(payload.bytes, what: what)
            }
            read.append((slice.architecture, entitlements, EntitlementsOrigin(payload.format)))
        }
        guard let first = read.first else {
            throw AppClaimsError(.malformed, "the file has no slice")
        }
        var result = try build(
            entitlements: first.entitlements ?? [:], path: path, role: role, bundleIdentifier: bundleIdentifier,
            architectures: read.map(\.architecture), origin: first.origin, overridingAppID: nil)
        for other in read.dropFirst() where other.entitlements != first.entitlements {
            let keys = Set((first.entitlements ?? [:]).keys).union((other.entitlements ?? [:]).keys)
                .filter { first.entitlements?[$0] != other.entitlements?[$0] }.sorted()
            result.findings.append(
                ClaimFinding(
                    code: .appSlicesDiffer, severity: .error,
                    message: "slice \(other.architecture) carries different entitlements from slice "
                        + "\(first.architecture) (\(keys.joined(separator: ", "))); every slice must claim the same"))
            // Check every domain any slice claims: the union, in order.
            let entries = other.entitlements?[Entitlement.associatedDomains]?.stringArray ?? []
            try checkEntryCount(entries.count, of: "slice \(other.architecture)")
            let extra = domainClaims(entries, isDevelopment: result.isDevelopment).claims
            var known = Set(result.claims)
            for claim in extra where known.insert(claim).inserted { result.claims.append(claim) }
        }
        return result
    }

    private static func build(
        entitlements: [String: EntitlementValue], path: String, role: BinaryRole, bundleIdentifier: String?,
        architectures: [String], origin: EntitlementsOrigin?, overridingAppID: AppID?
    ) throws(AppClaimsError) -> BinaryClaims {
        var findings: [ClaimFinding] = []
        let isDevelopment = entitlements[Entitlement.getTaskAllow]?.boolValue == true
        let signedAppID =
            entitlements[Entitlement.applicationIdentifier]?.stringValue
            ?? entitlements[Entitlement.macApplicationIdentifier]?.stringValue
        let appID = overridingAppID?.description ?? signedAppID
        let teamID =
            overridingAppID?.teamID ?? entitlements[Entitlement.teamIdentifier]?.stringValue
            ?? appID.flatMap(AppID.init)?.teamID

        var claims: [DomainClaim] = []
        if let domains = entitlements[Entitlement.associatedDomains] {
            if let entries = domains.stringArray {
                try checkEntryCount(entries.count, of: nil)
                (claims, findings) = domainClaims(entries, isDevelopment: isDevelopment)
            } else {
                findings.append(
                    ClaimFinding(
                        code: .appInvalidEntitlement, severity: .error,
                        message: "\(Entitlement.associatedDomains) is not an array of strings; the system ignores it"))
            }
        }
        if entitlements.isEmpty {
            findings.append(
                ClaimFinding(
                    code: .appNoEntitlements, severity: .info,
                    message: "the binary carries no entitlements (unsigned, or signed without any): it claims nothing"))
        }
        if let appID, AppID(appID) == nil {
            findings.append(
                ClaimFinding(
                    code: .appInvalidAppID, severity: .error,
                    message: "the app ID '\(appID)' is not TEAMID.bundle.id; no AASA file can list it"))
        } else if appID == nil, !claims.isEmpty {
            findings.append(
                ClaimFinding(
                    code: .appMissingAppID, severity: .error,
                    message: "the binary claims associated domains but has no application-identifier entitlement: "
                        + "no AASA file can list it (is it signed?)"))
        }
        return BinaryClaims(
            path: path, role: role, bundleIdentifier: bundleIdentifier, appID: appID, teamID: teamID,
            isDevelopment: isDevelopment, architectures: architectures, entitlementsOrigin: origin, claims: claims,
            findings: findings, entitlements: entitlements)
    }
}

extension AppClaimsParser {
    /// Refuses more associated-domains entries than `maximumDomainEntries`, before any is parsed.
    static func checkEntryCount(_ count: Int, of slice: String?) throws(AppClaimsError) {
        guard count > maximumDomainEntries else { return }
        throw AppClaimsError(
            .tooLarge,
            "\(Entitlement.associatedDomains)\(slice.map { " of \($0)" } ?? "") lists \(count) entries; at most "
                + "\(maximumDomainEntries) are read, since each becomes a watched domain: check that this is the "
                + "build you mean, and claim only the domains the app serves")
    }
}

/// The entitlement keys the reader looks at.
public enum Entitlement {
    public static let associatedDomains = "com.apple.developer.associated-domains"
    public static let applicationIdentifier = "application-identifier"
    public static let macApplicationIdentifier = "com.apple.application-identifier"
    public static let teamIdentifier = "com.apple.developer.team-identifier"
    public static let getTaskAllow = "get-task-allow"
}
