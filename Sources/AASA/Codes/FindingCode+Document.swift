extension FindingCode {
    /// The codes about a document's content (`aasa.*`), raised by the parser and lint.
    public static let document: [FindingCode] = [
        .aasaNoServices, .aasaType, .aasaAppIDFormat, .aasaAppIDPlaceholder, .aasaAppIDNumericPrefix,
        .aasaEmptyAppIDs, .aasaNoRules, .aasaMixedFormats, .aasaQueryNotString, .aasaQueryInPath,
        .aasaNotWithoutSpace, .aasaUnknownKey, .aasaUnreachableRule, .aasaExcludeMatchesAll, .aasaUndefinedVariable,
        .aasaLegacyApps, .aasaDuplicateKey,
    ]

    public static let aasaNoServices = FindingCode(
        .document, "no_services", severity: .error, concernsContent: true,
        meaning: "No known service key (`applinks`, `webcredentials`, `appclips`, …) at the top level.",
        whyAppleCares: "Apple finds nothing to associate: no universal link, password autofill or App Clip works.",
        fix: "Add an `applinks` (or other service) section to the file.",
        example: #"{"applinks_": {...}} — a misspelled top-level key leaves the file empty for Apple"#)

    public static let aasaType = FindingCode(
        .document, "type", severity: .error, concernsContent: true,
        meaning: "A known key has the wrong JSON type (the detail names the JSON path, expected and found type).",
        whyAppleCares: "Apple ignores a value of the wrong type, and with it the rules it held.",
        fix: "Give the key the JSON type Apple expects (see the detail's path).",
        example: #"$.applinks.details[0].appIDs is a string; Apple expects an array: "appIDs": ["…"]"#)

    public static let aasaAppIDFormat = FindingCode(
        .document, "appid_format", severity: .error, concernsContent: true,
        meaning: "An app ID is not 10 letters or digits, a dot and a bundle ID (catches stray whitespace).",
        whyAppleCares: "Devices compare app IDs exactly; a malformed one never equals the app's, and links fail "
            + "silently.",
        fix: "Write app IDs as TEAMID.bundle.id (10 characters, a dot, the bundle ID; no spaces).",
        example: #"app ID "ABCDE12345.com.example.app " has leading or trailing whitespace"#)

    public static let aasaAppIDPlaceholder = FindingCode(
        .document, "appid_placeholder", severity: .error, concernsContent: true,
        meaning: "An app ID starts with template text (`TEAMID`, `ABCDE12345`, `$(TeamIdentifierPrefix)`).",
        whyAppleCares: "No real app has that ID, so no app receives the links.",
        fix: "Replace the placeholder with your Team ID (Membership details on developer.apple.com).",
        example: #"app ID "TEAMID.com.example.app" starts with the placeholder "TEAMID""#)

    public static let aasaAppIDNumericPrefix = FindingCode(
        .document, "appid_numeric_prefix", severity: .warning, concernsContent: true,
        meaning: "An app ID's prefix is all digits, which looks like an App Store app ID rather than a Team ID.",
        whyAppleCares: "The prefix must be the Team ID (or App ID Prefix); a store ID never matches the app.",
        fix: "Use the Team ID (or App ID Prefix) shown on developer.apple.com.",
        example: #"app ID "1234567891.com.example.app" has an all-digit prefix"#)

    public static let aasaEmptyAppIDs = FindingCode(
        .document, "empty_app_ids", severity: .warning, concernsContent: true,
        meaning: "A details entry lists no app.",
        whyAppleCares: "Rules without an app apply to nothing; the entry is dead weight.",
        fix: "Add the app ID to `appIDs`, or remove the entry.",
        example: #"{"appIDs": [], "components": [{"/": "/*"}]}"#)

    public static let aasaNoRules = FindingCode(
        .document, "no_rules", severity: .warning, concernsContent: true,
        meaning: "A details entry has no `components` (or legacy `paths`) rules.",
        whyAppleCares: "An entry without rules matches no URL, so its app opens no link.",
        fix: #"Add rules, e.g. "components": [{"/": "/*"}]."#,
        example: #"{"appIDs": ["ABCDE12345.com.example.app"]}"#)

    public static let aasaMixedFormats = FindingCode(
        .document, "mixed_formats", severity: .warning, concernsContent: true,
        meaning: "A details entry has both `paths` and `components`.",
        whyAppleCares: "iOS 13+ and macOS 10.15+ ignore `paths` when `components` is present.",
        fix: "Use `components` only; iOS 13+ ignores `paths` when both are present.",
        example: #"{"appIDs": [...], "paths": ["/a/*"], "components": [{"/": "/b/*"}]}"#)

    public static let aasaQueryNotString = FindingCode(
        .document, "query_not_string", severity: .error, concernsContent: true,
        meaning: "A query dictionary holds a value that is not a string.",
        whyAppleCares: "Apple then ignores the whole query dictionary, so the rule matches more than intended.",
        fix: "Make every query pattern a string; Apple ignores the whole dictionary otherwise.",
        example: #"{"/": "/search", "?": {"page": 1}} — write "1""#)

    public static let aasaQueryInPath = FindingCode(
        .document, "query_in_path", severity: .warning, concernsContent: true,
        meaning: "A path pattern contains `#` or `?…=`, which is path text, not a fragment or query.",
        whyAppleCares: "Apple matches paths only against the URL's path, so the pattern never sees the query or "
            + "fragment.",
        fix: "Use `components` with a `?` or `#` key for the query or fragment.",
        example: #""paths": ["/item?id=*"] — use {"/": "/item", "?": {"id": "*"}}"#)

    public static let aasaNotWithoutSpace = FindingCode(
        .document, "not_without_space", severity: .warning, concernsContent: true,
        meaning: "A legacy `paths` entry starts with `NOT` but no space after it.",
        whyAppleCares: "Apple reads it as literal text, not as an exclusion, so the URLs it meant to exclude open the "
            + "app.",
        fix: "Write `NOT ` with one space before the pattern.",
        example: #""NOT/private/*" — write "NOT /private/*""#)

    public static let aasaUnknownKey = FindingCode(
        .document, "unknown_key", severity: .warning, concernsContent: true,
        meaning: "An unknown or misspelled key.",
        whyAppleCares: "Apple silently ignores unknown keys, so a misspelled option (`casesensitive`) has no effect.",
        fix: "Fix the key's spelling or remove it; Apple ignores unknown keys silently.",
        example: #"$.applinks.details[0].components[0].casesensitive — did you mean caseSensitive?"#)

    public static let aasaUnreachableRule = FindingCode(
        .document, "unreachable_rule", severity: .warning, concernsContent: true,
        meaning: "A rule can never be reached because an earlier rule already matches everything it would.",
        whyAppleCares: "Apple applies the first matching rule; a later exclude or include behind a catch-all is dead.",
        fix: "Reorder or remove the rule; an earlier rule already matches everything it would.",
        example: #"[{"/": "/*"}, {"/": "/admin/*", "exclude": true}] — the exclude never applies"#)

    public static let aasaExcludeMatchesAll = FindingCode(
        .document, "exclude_matches_all", severity: .warning, concernsContent: true,
        meaning: "An exclude rule matches every URL (e.g. query item pattern `*`, which also matches absent items).",
        whyAppleCares: "Every URL after it is excluded, so the app opens no link at all.",
        fix: "Narrow the exclude rule; as written it excludes every URL.",
        example: #"{"/": "*", "?": {"ref": "*"}, "exclude": true}"#)

    public static let aasaUndefinedVariable = FindingCode(
        .document, "undefined_variable", severity: .error, concernsContent: true,
        meaning: "`$(name)` is used but neither predefined nor defined in `substitutionVariables`.",
        whyAppleCares: "Apple matches nothing for an undefined variable, so the rule silently never fires.",
        fix: "Define the variable under `substitutionVariables` or fix its name.",
        example: #""/": "/$(locale)/*" without "substitutionVariables": {"locale": [...]} ($(lang) is predefined)"#)

    public static let aasaLegacyApps = FindingCode(
        .document, "legacy_apps", severity: .warning, concernsContent: true,
        meaning: "The legacy `apps` array is present and not empty.",
        whyAppleCares: "Apple documents `applinks.apps` as a leftover that must be `[]`; app IDs listed there get no "
            + "links.",
        fix: "Remove the legacy `apps` array, or leave it empty.",
        example: #""applinks": {"apps": ["ABCDE12345.com.example.app"], "details": [...]}"#)

    public static let aasaDuplicateKey = FindingCode(
        .document, "duplicate_key", severity: .warning, concernsContent: true,
        meaning: "An object repeats a key.",
        whyAppleCares: "JSON parsers disagree on which value wins, so Apple may read another value than your tools.",
        fix: "Remove the repeated key so every parser reads the same value.",
        example: #"{"appIDs": ["A"], "appIDs": ["B"]}"#)
}
