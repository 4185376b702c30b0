/// An app ID, `TEAMID.bundle.id`: the 10-character App ID prefix (usually the Team ID), a dot, the bundle ID.
public struct AppID: Sendable, Hashable, CustomStringConvertible {
    public var teamID: String
    public var bundleID: String

    /// `nil` unless `text` is ten ASCII letters or digits, a dot, and a non-empty bundle ID of letters, digits,
    /// dots and hyphens.
    public init?(_ text: String) {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].utf8.count == 10,
            parts[0].unicodeScalars.allSatisfy({
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))
            }),
            !parts[1].isEmpty,
            parts[1].unicodeScalars.allSatisfy({
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "." || $0 == "-")
            })
        else { return nil }
        teamID = String(parts[0])
        bundleID = String(parts[1])
    }

    public var description: String { "\(teamID).\(bundleID)" }
}
