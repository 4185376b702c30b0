import Foundation
import ZIPFoundation

/// Writes apps the way Xcode lays them out, for the app-reading tests: `.app` and `.xcarchive` folders and `.ipa`
/// archives holding a main app, an App Clip and an extension, each with its own signed executable; plus the
/// hostile archives of issue 22 (an entry named `../../x`, a deflate bomb, a file that is no ZIP).
public enum AppFixture {
    /// One bundle: its name (`Shop.app`), Info.plist values, executable and nested bundles.
    public struct Bundle: Sendable {
        public var name: String
        public var bundleID: String
        public var executableName: String
        public var executable: [UInt8]
        /// Info.plist as a binary property list instead of XML.
        public var binaryInfoPlist: Bool
        public var appClips: [Bundle]
        public var plugIns: [Bundle]
        public var extensions: [Bundle]

        public init(
            name: String, bundleID: String, executable: [UInt8], binaryInfoPlist: Bool = false,
            appClips: [Bundle] = [], plugIns: [Bundle] = [], extensions: [Bundle] = []
        ) {
            self.name = name
            self.bundleID = bundleID
            self.executableName = String(name.split(separator: ".").first ?? "App")
            self.executable = executable
            self.binaryInfoPlist = binaryInfoPlist
            self.appClips = appClips
            self.plugIns = plugIns
            self.extensions = extensions
        }

        /// Every file of the bundle, by path relative to the folder holding it.
        public func files(under prefix: String = "") -> [(path: String, bytes: [UInt8])] {
            let root = prefix.isEmpty ? name : prefix + "/" + name
            let info: [String: Any] = [
                "CFBundleExecutable": executableName, "CFBundleIdentifier": bundleID, "CFBundlePackageType": "APPL",
            ]
            var files: [(String, [UInt8])] = [
                (root + "/Info.plist", MachOFixture.plist(info, format: binaryInfoPlist ? .binary : .xml)),
                (root + "/" + executableName, executable),
                (root + "/Assets.car", [UInt8](repeating: 7, count: 1024)),
            ]
            for clip in appClips { files += clip.files(under: root + "/AppClips") }
            for plugIn in plugIns { files += plugIn.files(under: root + "/PlugIns") }
            for ext in extensions { files += ext.files(under: root + "/Extensions") }
            return files
        }
    }

    public static let teamID = "ABCDE12345"

    /// The entitlements of a signed binary with `appID` (`TEAMID.bundle`), `domains` and `get-task-allow`.
    public static func entitlements(
        bundleID: String, domains: [String], development: Bool = false, team: String = teamID
    ) -> [String: Any] {
        var entitlements: [String: Any] = [
            "application-identifier": "\(team).\(bundleID)",
            "com.apple.developer.team-identifier": team,
            "get-task-allow": development,
        ]
        if !domains.isEmpty { entitlements["com.apple.developer.associated-domains"] = domains }
        return entitlements
    }

    /// The shop of issue 22: a main app claiming applinks and webcredentials, an App Clip claiming appclips, and
    /// a credentials extension; each signed with XML and DER entitlements.
    public static func shop(development: Bool = false, mainDomains: [String]? = nil) -> Bundle {
        let main = MachOFixture.thin(
            .device(
                entitlements(
                    bundleID: "com.example.shop",
                    domains: mainDomains ?? [
                        "applinks:shop.example.com", "webcredentials:shop.example.com",
                        "applinks:*.example.com",
                    ],
                    development: development)))
        let clip = MachOFixture.thin(
            .device(
                entitlements(
                    bundleID: "com.example.shop.Clip", domains: ["appclips:shop.example.com"], development: development)
            ))
        let credentials = MachOFixture.thin(
            .device(
                entitlements(
                    bundleID: "com.example.shop.Credentials", domains: ["webcredentials:login.example.com"],
                    development: development)))
        return Bundle(
            name: "Shop.app", bundleID: "com.example.shop", executable: main,
            appClips: [Bundle(name: "ShopClip.app", bundleID: "com.example.shop.Clip", executable: clip)],
            plugIns: [
                Bundle(
                    name: "Credentials.appex", bundleID: "com.example.shop.Credentials", executable: credentials,
                    binaryInfoPlist: true)
            ])
    }

    // MARK: Writing

    /// Writes `files` under `directory`.
    public static func write(_ files: [(path: String, bytes: [UInt8])], in directory: URL) throws {
        for file in files {
            let url = directory.appendingPathComponent(file.path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(file.bytes).write(to: url)
        }
    }

    /// `bundle` as a folder in `directory`; returns its path.
    @discardableResult
    public static func appFolder(_ bundle: Bundle, in directory: URL) throws -> String {
        try write(bundle.files(), in: directory)
        return directory.appendingPathComponent(bundle.name).path
    }

    /// `NAME.xcarchive` with `bundle` in `Products/Applications`; returns its path.
    @discardableResult
    public static func xcarchive(
        _ bundle: Bundle, named name: String = "Shop.xcarchive", in directory: URL
    ) throws
        -> String
    {
        let archive = directory.appendingPathComponent(name)
        let info: [String: Any] = ["ArchiveVersion": 2, "Name": "Shop"]
        try write(
            [("Info.plist", MachOFixture.plist(info, format: .xml))]
                + bundle.files(under: "Products/Applications"), in: archive)
        return archive.path
    }

    /// An `.ipa`: a ZIP with `Payload/NAME.app/…` (deflated), plus `extra` entries as given.
    @discardableResult
    public static func ipa(
        _ bundle: Bundle?, named name: String = "Shop.ipa", extra: [(path: String, bytes: [UInt8])] = [],
        in directory: URL
    ) throws -> String {
        let url = directory.appendingPathComponent(name)
        let archive = try Archive(url: url, accessMode: .create)
        for file in (bundle?.files(under: "Payload") ?? []) + extra {
            let data = Data(file.bytes)
            try archive.addEntry(
                with: file.path, type: .file, uncompressedSize: Int64(data.count), compressionMethod: .deflate
            ) { position, size in
                data.subdata(in: Int(position)..<(Int(position) + size))
            }
        }
        return url.path
    }

    /// An `.ipa` whose `path` entry inflates to `size` bytes of zeros in about `size / 1032` bytes: a deflate bomb.
    /// `declaring` writes another uncompressed size in its headers, as a bomb that lies about itself does.
    ///
    /// The entry is written by hand (`DeflateBomb`), in the time it takes to write 2 MB: compressing 2 GiB through
    /// zlib and ZIPFoundation's checksum would take a minute of every test run. The rest of `bundle` is then added
    /// with ZIPFoundation, which updates the archive in place.
    @discardableResult
    public static func bombIPA(
        bombing path: String, size: Int = 2 << 30, declaring declared: Int? = nil, bundle: Bundle? = nil,
        named name: String = "Bomb.ipa", in directory: URL
    ) throws -> String {
        let url = directory.appendingPathComponent(name)
        try Data(DeflateBomb.zip(entry: path, zeros: size, declaring: declared)).write(to: url)
        let archive = try Archive(url: url, accessMode: .update)
        for file in bundle?.files(under: "Payload") ?? [] where file.path != path {
            let data = Data(file.bytes)
            try archive.addEntry(
                with: file.path, type: .file, uncompressedSize: Int64(data.count), compressionMethod: .deflate
            ) { position, size in
                data.subdata(in: Int(position)..<(Int(position) + size))
            }
        }
        return url.path
    }

    /// A fresh temporary folder for `body`, removed afterwards whatever happens.
    public static func withTemporaryDirectory<Result>(_ body: (URL) async throws -> Result) async throws -> Result {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "app-fixture-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        return try await body(directory)
    }
}
