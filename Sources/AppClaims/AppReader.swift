import Foundation

/// The shell of the reader: opens what a path names (an `.ipa`, an `.app` or `.xcarchive` folder, a Mach-O
/// executable, an `.entitlements` file), finds every binary and hands the bytes to the pure readers.
///
/// Nothing is written anywhere: archives are read in place, executables by ranges. Every failure is one
/// `AppClaimsError` naming `path` (and the file inside it).
public enum AppReader {
    /// `.entitlements` files are kilobytes.
    static let maximumEntitlementsFileSize = 4 << 20

    /// Reads everything `path` claims. `appID` (`TEAMID.bundle.id`) is required for an `.entitlements` file,
    /// which names no app, and refused for anything else, which names its own.
    public static func read(path: String, appID: String? = nil) throws(AppClaimsError) -> AppReport {
        do {
            let report = try readUnlocated(path: path, appID: appID)
            try checkDomainCount(report)
            return report
        } catch {
            throw error.located(file: path, member: nil)
        }
    }

    /// The most distinct domains one app file may claim across all its binaries: each is watched (`apps:`) or
    /// checked (`check --app`). Each binary carries at most `AppClaimsParser.maximumDomainEntries` entries, but an
    /// app has up to `BundleWalker.maximumBinaries` binaries.
    public static let maximumClaimedDomains = 1_000

    private static func checkDomainCount(_ report: AppReport) throws(AppClaimsError) {
        var domains: Set<String> = []
        for binary in report.binaries {
            for claim in binary.claims {
                domains.insert(claim.readDomain)
                guard domains.count <= maximumClaimedDomains else {
                    throw AppClaimsError(
                        .tooLarge,
                        "its binaries claim more than \(maximumClaimedDomains) domains (\(binary.path) passes the "
                            + "bound); each would be watched: check that this is the app you mean")
                }
            }
        }
    }

    /// What kind of file `path` is, from its content (not its name), without reading it all.
    public static func kind(of path: String) throws(AppClaimsError) -> AppFileKind {
        do {
            return try kindUnlocated(path)
        } catch {
            throw error.located(file: path, member: nil)
        }
    }

    private static func kindUnlocated(_ path: String) throws(AppClaimsError) -> AppFileKind {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw AppClaimsError(.unreadable, "no such file or folder")
        }
        if isDirectory.boolValue {
            let store = DirectoryStore(root: path)
            if !store.folders(in: "Products/Applications").isEmpty { return .xcarchive }
            if store.isFile("Info.plist") || store.isFile("Contents/Info.plist") { return .app }
            throw AppClaimsError(
                .incompleteBundle,
                "is a folder but neither an .app (no Info.plist) nor an .xcarchive "
                    + "(no Products/Applications)")
        }
        let file = try FileByteSource(path: path)
        let head = try file.bytes(in: 0..<min(file.count, 64))
        if MachOReader.isMachO(head) { return .machO }
        if head.starts(with: [0x50, 0x4b]) { return .ipa }
        if PropertyListDepth.format(of: head) != nil { return .entitlements }
        let name = path.lowercased()
        if name.hasSuffix(".ipa") || name.hasSuffix(".zip") {
            throw AppClaimsError(
                .notZIP, "not a ZIP archive (starts with \(PropertyListDepth.preview(head)), not PK)")
        }
        throw AppClaimsError(
            .unknownFormat,
            "neither a Mach-O executable, an .ipa (ZIP) nor a property list (starts with "
                + "\(PropertyListDepth.preview(head)))")
    }

    private static func readUnlocated(path: String, appID: String?) throws(AppClaimsError) -> AppReport {
        let kind = try kindUnlocated(path)
        if kind != .entitlements, let appID {
            throw AppClaimsError(
                .invalidAppID,
                "an app ID (\(appID)) is only for .entitlements files; this \(kind.rawValue) names its own")
        }
        let name = URL(fileURLWithPath: path).lastPathComponent
        switch kind {
        case .entitlements:
            guard let appID else {
                throw AppClaimsError(
                    .appIDRequired, "an .entitlements file names no app: give the app ID (TEAMID.bundle.id) it is for")
            }
            let bytes = try FileByteSource(path: path).all(
                limit: maximumEntitlementsFileSize, what: "the entitlements file")
            return AppReport(
                path: path, kind: kind,
                binaries: [try AppClaimsParser.entitlementsFile(bytes, path: name, appID: appID)])
        case .machO:
            return AppReport(
                path: path, kind: kind, binaries: [try AppClaimsParser.binary(FileByteSource(path: path), path: name)])
        case .app:
            var walker = BundleWalker(store: DirectoryStore(root: path), displayPrefix: name)
            try walker.readBundle(at: "", role: .app)
            return AppReport(path: path, kind: kind, binaries: walker.binaries)
        case .xcarchive:
            return AppReport(
                path: path, kind: kind,
                binaries: try readApps(in: DirectoryStore(root: path), folder: "Products/Applications"))
        case .ipa:
            return AppReport(
                path: path, kind: kind, binaries: try readApps(in: ZIPStore(path: path), folder: "Payload"))
        }
    }

    /// Every `NAME.app` directly in `folder` of `store`, each with its nested bundles.
    private static func readApps(in store: any BundleStore, folder: String) throws(AppClaimsError) -> [BinaryClaims] {
        let apps = store.folders(in: folder).filter { $0.hasSuffix(".app") }
        guard !apps.isEmpty else {
            throw AppClaimsError(.incompleteBundle, "has no \(folder)/NAME.app")
        }
        var walker = BundleWalker(store: store, displayPrefix: "")
        for app in apps {
            try walker.readBundle(at: folder + "/" + app, role: .app)
        }
        return walker.binaries
    }
}
