/// What one signed binary of an app claims: its app ID, whether it is a development build, and its associated
/// domains. An app has one per executable: the main app, each App Clip, each extension.
public struct BinaryClaims: Sendable, Hashable {
    /// Where the executable is within what was read (`Payload/Shop.app/Shop`, `Shop.app/PlugIns/Share.appex/Share`);
    /// the file name for a lone executable or `.entitlements` file.
    public var path: String
    public var role: BinaryRole
    /// `CFBundleIdentifier` from the bundle's Info.plist, when read from a bundle.
    public var bundleIdentifier: String?
    /// `application-identifier` (iOS) or `com.apple.application-identifier` (macOS): `TEAMID.bundle.id`; for an
    /// `.entitlements` file, the app ID the caller gave.
    public var appID: String?
    /// `com.apple.developer.team-identifier`, else the app ID's prefix.
    public var teamID: String?
    /// `get-task-allow` is true: a development-signed build.
    public var isDevelopment: Bool
    /// The slices' architectures (`arm64`, `x86_64`); empty for an `.entitlements` file.
    public var architectures: [String]
    /// Where the entitlements were read: the signature's XML or DER blob, a simulator section, a file.
    public var entitlementsOrigin: EntitlementsOrigin?
    /// Every valid claim of `com.apple.developer.associated-domains`, in entitlement order (of every slice).
    public var claims: [DomainClaim]
    public var findings: [ClaimFinding]
    /// All entitlements, as read (of the first slice).
    public var entitlements: [String: EntitlementValue]

    public init(
        path: String, role: BinaryRole, bundleIdentifier: String? = nil, appID: String?, teamID: String?,
        isDevelopment: Bool, architectures: [String], entitlementsOrigin: EntitlementsOrigin?,
        claims: [DomainClaim], findings: [ClaimFinding], entitlements: [String: EntitlementValue]
    ) {
        self.path = path
        self.role = role
        self.bundleIdentifier = bundleIdentifier
        self.appID = appID
        self.teamID = teamID
        self.isDevelopment = isDevelopment
        self.architectures = architectures
        self.entitlementsOrigin = entitlementsOrigin
        self.claims = claims
        self.findings = findings
        self.entitlements = entitlements
    }
}

/// What a binary is within its app.
public enum BinaryRole: String, Sendable, Hashable, Codable {
    /// The main app (or a lone executable or `.entitlements` file).
    case app
    /// An App Clip: `AppClips/*.app`.
    case appClip = "app_clip"
    /// An app extension: `PlugIns/*.appex`, `Extensions/*.appex`.
    case appExtension = "extension"
}

/// Where a binary's entitlements were found.
public enum EntitlementsOrigin: String, Sendable, Hashable, Codable {
    /// The code signature's XML blob (`0xfade7171`).
    case signatureXML = "signature_xml"
    /// The code signature's DER blob (`0xfade7172`), read when there is no XML blob.
    case signatureDER = "signature_der"
    /// A simulator build's `__TEXT,__entitlements` (or `__ents_der`) section.
    case simulatorSection = "simulator_section"
    /// An `.entitlements` property list.
    case file

    init(_ format: EntitlementsPayload.Format) {
        switch format {
        case .xml: self = .signatureXML
        case .der: self = .signatureDER
        case .sectionXML, .sectionDER: self = .simulatorSection
        }
    }
}
