/// The files of an app as the bundle walker sees them, wherever they are: a folder on disk or a ZIP archive read
/// in place. Paths are relative, `/`-separated, and never contain `..` (the stores refuse them).
protocol BundleStore {
    /// Whether a regular file exists at `path`.
    func isFile(_ path: String) -> Bool
    /// The names of the folders directly inside `directory` (`""` for the root), sorted.
    func folders(in directory: String) -> [String]
    /// A small file (Info.plist) read whole; refused above `limit` bytes, however it is stored.
    func read(_ path: String, limit: Int) throws(AppClaimsError) -> [UInt8]
    /// The Mach-O slices of the executable at `path`, reading only what `MachOReader` asks for.
    func slices(ofExecutable path: String) throws(AppClaimsError) -> [MachOSlice]
}

/// Reads every binary of the `.app` bundles in a store: the main executable, App Clips and extensions.
///
/// A bundle's Info.plist (`Info.plist`, or `Contents/Info.plist` for a macOS app) names its executable
/// (`CFBundleExecutable`) and bundle ID (`CFBundleIdentifier`). Nested bundles are read to `maximumNesting` levels
/// (an App Clip's own extensions), and at most `maximumBinaries` binaries in all.
struct BundleWalker {
    static let maximumNesting = 3
    static let maximumBinaries = 256
    static let maximumInfoPlistSize = 4 << 20

    let store: any BundleStore
    /// Prepended to store paths in `BinaryClaims.path` and in errors (`Shop.app` for a folder read in place).
    let displayPrefix: String
    private(set) var binaries: [BinaryClaims] = []

    init(store: any BundleStore, displayPrefix: String) {
        self.store = store
        self.displayPrefix = displayPrefix
    }

    func display(_ path: String) -> String {
        displayPrefix.isEmpty ? path : path.isEmpty ? displayPrefix : displayPrefix + "/" + path
    }

    /// Reads the bundle at `bundle` (a store path; `""` for the root) and everything nested in it.
    mutating func readBundle(at bundle: String, role: BinaryRole, depth: Int = 0) throws(AppClaimsError) {
        guard binaries.count < Self.maximumBinaries else {
            throw AppClaimsError(.tooLarge, "more than \(Self.maximumBinaries) binaries; the rest are not read")
        }
        let join = { (name: String) in bundle.isEmpty ? name : bundle + "/" + name }
        let contents: String
        if store.isFile(join("Info.plist")) {
            contents = bundle
        } else if store.isFile(join("Contents/Info.plist")) {
            contents = join("Contents")
        } else {
            throw AppClaimsError(
                .incompleteBundle, "has no Info.plist: not an app bundle", member: display(bundle))
        }
        let contentsJoin = { (name: String) in contents.isEmpty ? name : contents + "/" + name }
        let infoPath = contentsJoin("Info.plist")
        let info: [String: EntitlementValue]
        do {
            info = try PropertyListReader.dictionary(
                try store.read(infoPath, limit: Self.maximumInfoPlistSize), what: "Info.plist")
        } catch {
            throw error.located(file: "", member: display(infoPath))
        }
        guard let executable = info["CFBundleExecutable"]?.stringValue, !executable.isEmpty,
            !executable.contains("/"), executable != "..", executable != "."
        else {
            throw AppClaimsError(
                .incompleteBundle, "has no usable CFBundleExecutable (a file name)", member: display(infoPath))
        }
        let executablePath = contents == bundle ? contentsJoin(executable) : contentsJoin("MacOS/" + executable)
        guard store.isFile(executablePath) else {
            throw AppClaimsError(
                .incompleteBundle, "is named by CFBundleExecutable but is not in the bundle",
                member: display(executablePath))
        }
        do {
            let slices = try store.slices(ofExecutable: executablePath)
            binaries.append(
                try AppClaimsParser.claims(
                    of: slices, path: display(executablePath), role: role,
                    bundleIdentifier: info["CFBundleIdentifier"]?.stringValue))
        } catch {
            throw error.located(file: "", member: display(executablePath))
        }
        guard depth < Self.maximumNesting else { return }
        for (folder, suffix, nestedRole) in [
            ("AppClips", ".app", BinaryRole.appClip), ("PlugIns", ".appex", .appExtension),
            ("Extensions", ".appex", .appExtension),
        ] {
            for name in store.folders(in: contentsJoin(folder)) where name.hasSuffix(suffix) {
                try readBundle(at: contentsJoin(folder) + "/" + name, role: nestedRole, depth: depth + 1)
            }
        }
    }
}
