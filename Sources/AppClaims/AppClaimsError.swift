/// Why an app file could not be read: one line that names the file and what is wrong with it.
///
/// Every hostile input (a truncated binary, an offset past the end, a SuperBlob claiming billions of slots, a
/// 100,000-deep property list, a ZIP entry named `../../x`, a deflate bomb) ends here rather than in a crash, a hang
/// or a file written (issue 22, item 5). `description` is the line a person reads; `kind` is for programs.
public struct AppClaimsError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, as a stable category; the `reason` says the details.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        /// The stable name, e.g. `truncated`.
        public let name: String
        public var description: String { name }

        /// The file cannot be opened or read (missing, a directory where a file was expected, no permission).
        public static let unreadable = Kind(name: "unreadable")
        /// The bytes are none of the formats an app is made of (Mach-O, ZIP, property list, bundle folder).
        public static let unknownFormat = Kind(name: "unknown_format")
        /// A Mach-O header, load command or code-signature blob is cut short by the end of its file.
        public static let truncated = Kind(name: "truncated")
        /// An offset or size points outside the file or outside the structure that holds it.
        public static let outOfBounds = Kind(name: "out_of_bounds")
        /// A count or size is beyond what any real app has (a SuperBlob with billions of slots, a 3 GB plist).
        public static let tooLarge = Kind(name: "too_large")
        /// A structure has the wrong magic number or an impossible value.
        public static let malformed = Kind(name: "malformed")
        /// The entitlements (or Info.plist) are not a property list, or not the one expected.
        public static let notPropertyList = Kind(name: "not_property_list")
        /// A property list nests deeper than any real one (the parser would overflow its stack).
        public static let tooDeep = Kind(name: "too_deep")
        /// The file is named or found as a ZIP archive but is not one.
        public static let notZIP = Kind(name: "not_zip")
        /// A ZIP entry's name escapes the archive (`..`, an absolute path).
        public static let unsafeEntryName = Kind(name: "unsafe_entry_name")
        /// A bundle lacks what every bundle has (Info.plist, `CFBundleExecutable`, the executable, a `.app`).
        public static let incompleteBundle = Kind(name: "incomplete_bundle")
        /// An `.entitlements` file names no app, and no app ID was given.
        public static let appIDRequired = Kind(name: "app_id_required")
        /// An app ID was given but is not `TEAMID.bundle.id`, or was given for a file that names its own app.
        public static let invalidAppID = Kind(name: "invalid_app_id")
        /// The streaming reader needs bytes it has not kept (internal; never thrown out of the library).
        static let missingBytes = Kind(name: "missing_bytes")
    }

    public var kind: Kind
    /// The path given to the reader (the `.ipa`, the folder, the executable).
    public var file: String
    /// The file inside it that is wrong (`Payload/Shop.app/Shop`), when it is not `file` itself.
    public var member: String?
    /// What is wrong, for a person; one line.
    public var reason: String
    /// For `missingBytes`: the range the parser asked for.
    var missingRange: Range<UInt64>?

    public init(_ kind: Kind, _ reason: String, file: String = "", member: String? = nil) {
        self.kind = kind
        self.reason = reason
        self.file = file
        self.member = member
    }

    /// `file: member: reason`, on one line whatever the reason or the names hold.
    public var description: String {
        let location = member.map { "\(file): \($0)" } ?? file
        let line = location.isEmpty ? reason : "\(location): \(reason)"
        return line.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).joined(separator: " ")
    }

    /// The same error located in `file` (and `member`), unless an inner reader already located it.
    func located(file: String, member: String?) -> AppClaimsError {
        var copy = self
        if copy.file.isEmpty { copy.file = file }
        if copy.member == nil { copy.member = member }
        return copy
    }

    static func missing(_ range: Range<UInt64>) -> AppClaimsError {
        var error = AppClaimsError(.missingBytes, "bytes \(range.lowerBound)..<\(range.upperBound) were not kept")
        error.missingRange = range
        return error
    }
}
