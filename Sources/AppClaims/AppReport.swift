/// Everything an app file claims: one `BinaryClaims` per signed binary, main app first.
public struct AppReport: Sendable, Hashable {
    /// The path that was read, as given.
    public var path: String
    public var kind: AppFileKind
    public var binaries: [BinaryClaims]

    public init(path: String, kind: AppFileKind, binaries: [BinaryClaims]) {
        self.path = path
        self.kind = kind
        self.binaries = binaries
    }

    /// Every finding of every binary, with the binary it is about.
    public var findings: [(binary: BinaryClaims, finding: ClaimFinding)] {
        binaries.flatMap { binary in binary.findings.map { (binary, $0) } }
    }
}

/// What kind of file an app was read from.
public enum AppFileKind: String, Sendable, Hashable, Codable {
    /// A ZIP archive with `Payload/NAME.app/`.
    case ipa
    /// An `.app` bundle folder.
    case app
    /// An Xcode archive folder with `Products/Applications/NAME.app/`.
    case xcarchive
    /// A lone Mach-O executable, thin or universal.
    case machO = "mach_o"
    /// An `.entitlements` property list, with an app ID given by the caller.
    case entitlements
}
