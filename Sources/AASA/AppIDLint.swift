/// Checks one app ID (`ABCDE12345.com.example.app`) and says exactly what to change.
///
/// Devices fail silently on a bad app ID (a trailing space, team and bundle swapped, a template placeholder),
/// which makes these the most valuable findings in practice. The shape is LinkForty's
/// `^[A-Za-z0-9]{10}\.[A-Za-z0-9.*-]+$`: a 10-character prefix (usually the Team ID), a dot, the bundle ID.
enum AppIDLint {
    /// Prefixes that are template text, not a real Team ID. Apple's own example `ABCDE12345` is included: it is in
    /// every tutorial and never belongs to a real team.
    private static let placeholderPrefixes: Set<String> = [
        "TEAMID", "TEAM_ID", "APPLE_TEAM_ID", "YOUR_TEAM_ID", "YOURTEAMID", "TEAM-ID", "<TEAM_ID>", "<TEAMID>",
        "XXXXXXXXXX", "ABCDE12345", "ABCDEFGHIJ", "1234567890", "0123456789", "APP_ID_PREFIX", "APPIDPREFIX",
        "$(TEAMIDENTIFIERPREFIX)", "$(APPIDENTIFIERPREFIX)", "$(DEVELOPMENT_TEAM)", "{TEAM_ID}", "{{TEAM_ID}}",
        "${TEAM_ID}", "%TEAM_ID%",
    ]

    static func findings(for appID: String, at path: String) -> [Finding] {
        func finding(_ code: FindingCode, _ severity: Finding.Severity, _ message: String) -> [Finding] {
            [Finding(code: code, severity: severity, path: path, message: "app ID \"\(appID)\" " + message)]
        }
        let trimmed = appID.trimmingSpaces()
        if trimmed != appID {
            return finding(
                .aasaAppIDFormat, .error,
                "has leading or trailing whitespace, so it never equals your app's ID; write \"\(trimmed)\"")
        }
        if appID.isEmpty {
            return [
                Finding(
                    code: .aasaAppIDFormat, severity: .error, path: path,
                    message: "empty app ID; write <Team ID>.<bundle ID>, e.g. ABCDE12345.com.example.app")
            ]
        }
        let parts = appID.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let prefix = String(parts[0])
        if placeholderPrefixes.contains(prefix.uppercased())
            || (prefix.uppercased().contains("TEAM") && !isPrefixShaped(prefix))
        {
            return finding(
                .aasaAppIDPlaceholder, .error,
                "starts with the placeholder \"\(prefix)\"; replace it with your Team ID (10 characters, "
                    + "Membership details on developer.apple.com)")
        }
        guard parts.count == 2, !parts[1].isEmpty else {
            return finding(
                .aasaAppIDFormat, .error,
                "has no bundle ID; write <Team ID>.<bundle ID>, e.g. ABCDE12345.com.example.app")
        }
        let bundle = parts[1]
        // Printable ASCII (nearly every ID) has no whitespace left after the trim check above; only other IDs pay
        // for Unicode property lookups, which were a visible share of a check's evaluation.
        let printableASCII = appID.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }
        if !printableASCII, appID.unicodeScalars.contains(where: { $0.properties.isWhitespace }) {
            return finding(.aasaAppIDFormat, .error, "contains whitespace; remove it")
        }
        if !isPrefixShaped(prefix) {
            if let swapped = swappedOrder(appID) {
                return finding(
                    .aasaAppIDFormat, .error,
                    "has the bundle ID before the Team ID; write \"\(swapped)\"")
            }
            let problem =
                prefix.unicodeScalars.allSatisfy(isAlphanumeric)
                ? "its prefix \"\(prefix)\" has \(prefix.count) characters, not 10"
                : "its prefix \"\(prefix)\" is not 10 letters and digits"
            return finding(
                .aasaAppIDFormat, .error,
                "is not <Team ID>.<bundle ID>: \(problem); copy the Team ID from developer.apple.com")
        }
        if let bad = bundle.unicodeScalars.first(where: { !isAlphanumeric($0) && !".*-".unicodeScalars.contains($0) }) {
            return finding(
                .aasaAppIDFormat, .error,
                "has \"\(bad)\" in its bundle ID; bundle IDs hold only letters, digits, '.' and '-'")
        }
        if prefix.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }) {
            return finding(
                .aasaAppIDNumericPrefix, .warning,
                "has an all-digit prefix \"\(prefix)\", which looks like an App Store app ID rather than a Team ID; "
                    + "use the Team ID (or App ID Prefix) shown on developer.apple.com")
        }
        return []
    }

    private static func isPrefixShaped(_ prefix: String) -> Bool {
        prefix.unicodeScalars.count == 10 && prefix.unicodeScalars.allSatisfy(isAlphanumeric)
    }

    private static func isAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
    }

    /// `com.example.app.ABCDE12345` → `ABCDE12345.com.example.app`, when the last label is Team-ID shaped
    /// (10 upper-case letters and digits, at least one digit) and the first is not.
    private static func swappedOrder(_ appID: String) -> String? {
        let labels = appID.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, let last = labels.last else { return nil }
        let lastScalars = last.unicodeScalars
        let looksLikeTeam =
            lastScalars.count == 10
            && lastScalars.allSatisfy { ("A"..."Z").contains($0) || ("0"..."9").contains($0) }
            && lastScalars.contains { ("0"..."9").contains($0) }
        guard looksLikeTeam else { return nil }
        return ([String(last)] + labels.dropLast().map(String.init)).joined(separator: ".")
    }
}
