import AASA

/// One app claim a check judged: its app ID listed in one service of the domain's file, on each copy that devices
/// of the claim read. `check --app` lists them, held or not, so that a passing gate can be audited.
public struct ClaimCheck: Sendable, Hashable, Codable {
    public var appID: String
    public var service: String
    /// The app file, the binary and the entry (`Shop.ipa Payload/Shop.app/Shop: applinks:shop.example.com`).
    public var claimedBy: String
    /// A `?mode=developer` or `?mode=managed` claim: devices read the origin only, never Apple's copy.
    public var originOnly: Bool
    /// Whether the origin's `.well-known` file lists the app; `nil` when the origin served no valid file.
    public var origin: Bool?
    /// Whether Apple's copy lists the app; `nil` when Apple served no valid copy or the claim does not read it.
    public var cdn: Bool?

    public init(
        appID: String, service: String, claimedBy: String, originOnly: Bool, origin: Bool?, cdn: Bool?
    ) {
        self.appID = appID
        self.service = service
        self.claimedBy = claimedBy
        self.originOnly = originOnly
        self.origin = origin
        self.cdn = cdn
    }

    /// Listed on every copy the claim reads: the origin, and Apple's copy unless devices bypass it.
    public var held: Bool { origin == true && (originOnly || cdn == true) }

    enum CodingKeys: String, CodingKey {
        case service, origin, cdn, held
        case appID = "app_id"
        case claimedBy = "claimed_by"
        case originOnly = "origin_only"
    }

    /// Every key written, absent copies as `null`, and `held` for readers that want one answer.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(appID, forKey: .appID)
        try container.encode(service, forKey: .service)
        try container.encode(claimedBy, forKey: .claimedBy)
        try container.encode(originOnly, forKey: .originOnly)
        try container.encode(origin, forKey: .origin)
        try container.encode(cdn, forKey: .cdn)
        try container.encode(held, forKey: .held)
    }

    /// `held` follows from the rest and is not read back.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        appID = try container.decode(String.self, forKey: .appID)
        service = try container.decode(String.self, forKey: .service)
        claimedBy = try container.decode(String.self, forKey: .claimedBy)
        originOnly = try container.decode(Bool.self, forKey: .originOnly)
        origin = try container.decodeIfPresent(Bool.self, forKey: .origin)
        cdn = try container.decodeIfPresent(Bool.self, forKey: .cdn)
    }
}

/// The claims of a check, each judged on the copies it reads (`DomainEvaluator`).
enum ClaimEvaluation {
    /// One `ClaimCheck` per app expectation an app's claim made (`claimedBy`), in the expectations' order; the
    /// expectations a person typed are judged by their `expect.*` findings alone. `nil` when no app claims the
    /// domain, so reports of other domains keep their shape.
    static func checks(_ expectations: Expectations, origin: AASADocument?, cdn: AASADocument?) -> [ClaimCheck]? {
        let claimed = expectations.apps.filter { $0.claimedBy != nil }
        guard !claimed.isEmpty else { return nil }
        return claimed.map { app in
            func lists(_ document: AASADocument?) -> Bool? {
                document.map { ExpectationEvaluation.listedApps($0, service: app.service).contains(app.appID) }
            }
            return ClaimCheck(
                appID: app.appID, service: app.service, claimedBy: app.claimedBy ?? "", originOnly: app.originOnly,
                origin: lists(origin), cdn: app.originOnly ? nil : lists(cdn))
        }
    }
}

extension ClaimEvaluation {
    /// A finding about Apple's copy of a domain that devices read from the origin only (`Expectations.originOnly`):
    /// information, saying why, so that neither the verdict nor an alert rests on a copy nobody reads.
    static func informOnly(_ finding: ReportFinding) -> ReportFinding {
        guard finding.source == .cdn else { return finding }
        var informed = finding
        informed.severity = .info
        informed.detail["origin_only"] = .bool(true)
        // Said first, and the finding's own words kept whole after it: cutting them at a punctuation mark would
        // cut inside a quoted error or a reason.
        informed.message =
            "information only, as every claim of this domain is ?mode=developer or ?mode=managed, which devices read "
            + "from the origin directly, never through Apple's CDN: \(finding.message)"
        return informed
    }
}
