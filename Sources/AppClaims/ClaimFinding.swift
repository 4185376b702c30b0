/// Something worth saying about what a binary claims: an unknown service, a bad mode, a developer-mode claim in a
/// release build, slices that disagree.
///
/// Findings are about the claims, not about reading: a file that cannot be read is an `AppClaimsError` instead.
public struct ClaimFinding: Sendable, Hashable, Codable {
    /// A stable dotted id, as `aasa.*` and `expect.*` codes are; receivers route on it.
    public struct Code: Sendable, Hashable, Codable, CustomStringConvertible, RawRepresentable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// An entry whose service is not applinks, webcredentials, appclips or activitycontinuation (`appliinks`).
        public static let unknownService = Code(rawValue: "app.unknown_service")
        /// An entry that is not `SERVICE:DOMAIN[?mode=MODE]` (no colon, no domain, a query other than `mode=`).
        public static let invalidEntry = Code(rawValue: "app.invalid_entry")
        /// A `?mode=` other than developer, managed or developer+managed.
        public static let invalidMode = Code(rawValue: "app.invalid_mode")
        /// A domain that is no host name: control characters, spaces, a path, a misplaced wildcard.
        public static let invalidDomain = Code(rawValue: "app.invalid_domain")
        /// `?mode=developer` in a distribution build: customers' devices ignore the entry (error).
        public static let developerModeInDistribution = Code(rawValue: "app.developer_mode_in_distribution")
        /// `?mode=developer` in a development build: works on development devices only (info).
        public static let developerMode = Code(rawValue: "app.developer_mode")
        /// The binary claims domains but names no app ID (`application-identifier`), so no file can list it.
        public static let missingAppID = Code(rawValue: "app.missing_app_id")
        /// The app ID is not `TEAMID.bundle.id`.
        public static let invalidAppID = Code(rawValue: "app.invalid_app_id")
        /// The binary carries no entitlements at all (unsigned, or signed without any).
        public static let noEntitlements = Code(rawValue: "app.no_entitlements")
        /// The associated-domains entitlement is not an array of strings.
        public static let invalidEntitlement = Code(rawValue: "app.invalid_entitlement")
        /// The slices of a universal binary carry different entitlements.
        public static let slicesDiffer = Code(rawValue: "app.slices_differ")
    }

    public enum Severity: String, Sendable, Hashable, Codable, Comparable {
        case info
        case warning
        case error

        private var rank: Int {
            switch self {
            case .info: 0
            case .warning: 1
            case .error: 2
            }
        }

        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
    }

    public var code: Code
    public var severity: Severity
    /// The associated-domains entry the finding is about, when it is about one.
    public var entry: String?
    /// One line for a person: what is wrong and what to change.
    public var message: String

    public init(code: Code, severity: Severity, entry: String? = nil, message: String) {
        self.code = code
        self.severity = severity
        self.entry = entry
        self.message = message
    }
}
