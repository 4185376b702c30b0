/// The app reader's codes (`app.*`): what an app's entitlements claim, read by `aasa-monitor app`, `check --app`
/// and `apps:`. They are never a domain's finding: `check --app` and `apps:` carry one as the `app_code` of an
/// `expect.app_claim` finding or as a problem of the app, so a silence cannot name one. Declared here, beside the
/// document's codes, so that the app reader (AppClaims) raises the members `explain` reads.
extension FindingCode {
    /// Every `app.*` code, in the order `explain --list` shows them.
    public static let app: [FindingCode] = [
        .appUnknownService, .appInvalidEntry, .appInvalidMode, .appInvalidDomain, .appDeveloperModeInDistribution,
        .appDeveloperMode, .appMissingAppID, .appInvalidAppID, .appNoEntitlements, .appInvalidEntitlement,
        .appSlicesDiffer,
    ]

    /// An entry whose service is not applinks, webcredentials, appclips or activitycontinuation (`appliinks`).
    public static let appUnknownService = FindingCode(
        .app, "unknown_service", severity: .error,
        meaning: "An associated-domains entry names a service other than applinks, webcredentials, appclips or "
            + "activitycontinuation.",
        whyAppleCares: "The system ignores an entry whose service it does not know: the domain gets nothing "
            + "from it.",
        fix: "Correct the service's spelling in the entitlements file (applinks:, not appliinks:).",
        example: "'appliinks' is not a service (applinks, webcredentials, appclips, activitycontinuation); the "
            + "entry is ignored")

    /// An entry that is not `SERVICE:DOMAIN[?mode=MODE]` (no colon, no domain, a query other than `mode=`).
    public static let appInvalidEntry = FindingCode(
        .app, "invalid_entry", severity: .error,
        meaning: "An associated-domains entry is not SERVICE:DOMAIN[?mode=MODE] (no colon, no domain, a query "
            + "other than mode=).",
        whyAppleCares: "The system ignores an entry it cannot read.",
        fix: "Write the entry as service:domain, e.g. applinks:shop.example.com.",
        example: "'applinks:shop.example.com?tab=1' has a query other than ?mode=; the entry is ignored")

    /// A `?mode=` other than developer, managed or developer+managed.
    public static let appInvalidMode = FindingCode(
        .app, "invalid_mode", severity: .error,
        meaning: "An entry's ?mode= is not developer, managed or developer+managed.",
        whyAppleCares: "The system ignores an entry with a mode it does not know.",
        fix: "Use ?mode=developer, ?mode=managed or ?mode=developer+managed, or no mode at all.",
        example: "'debug' is not a mode (developer, managed, developer+managed); the entry is ignored")

    /// A domain that is no host name: control characters, spaces, a path, a misplaced wildcard.
    public static let appInvalidDomain = FindingCode(
        .app, "invalid_domain", severity: .error,
        meaning: "An entry's domain is no host name: control characters, spaces, a path or a misplaced wildcard "
            + "(shown escaped).",
        whyAppleCares: "No file can be fetched for a name that is not a host: the entry claims nothing.",
        fix: "Claim the host name only (applinks:shop.example.com, or applinks:*.example.com for subdomains).",
        example: "'shop.example.com/app' is not a host name: it holds '/'")

    /// `?mode=developer` in a distribution build: customers' devices ignore the entry (error).
    public static let appDeveloperModeInDistribution = FindingCode(
        .app, "developer_mode_in_distribution", severity: .error,
        meaning: "An entry has ?mode=developer in a distribution build (get-task-allow false or absent).",
        whyAppleCares: "Customers' devices ignore developer-mode entries: the domain gets no universal links from "
            + "this build, whatever the file says.",
        fix: "Remove ?mode=developer from the release build's entitlements (keep it in a Debug configuration).",
        example: "'applinks:staging.example.com?mode=developer' is in a distribution build (get-task-allow is "
            + "not true): customers' devices ignore ?mode=developer; claim the domain without a mode")

    /// `?mode=developer` in a development build: works on development devices only (info).
    public static let appDeveloperMode = FindingCode(
        .app, "developer_mode", severity: .info,
        meaning: "An entry has ?mode=developer in a development build (get-task-allow true).",
        whyAppleCares: "Only devices with associated-domains development enabled use it, and they fetch the file "
            + "from the origin, not Apple's CDN: only the origin is checked.",
        fix: "Nothing for a development build; make sure the release configuration claims the domain without "
            + "a mode.",
        example: "'applinks:staging.example.com?mode=developer' works only on devices with associated-domains "
            + "development enabled; devices fetch it from the origin, not Apple's CDN")

    /// The binary claims domains but names no app ID (`application-identifier`), so no file can list it.
    public static let appMissingAppID = FindingCode(
        .app, "missing_app_id", severity: .error,
        meaning: "A binary claims associated domains but has no application-identifier entitlement.",
        whyAppleCares: "Files list apps by app ID: an app without one cannot be listed, so its claims never work.",
        fix: "Sign the binary with a provisioning profile (codesign adds application-identifier), then read the "
            + "signed build.",
        example: "the binary claims associated domains but has no application-identifier entitlement: no AASA "
            + "file can list it (is it signed?)")

    /// The app ID is not `TEAMID.bundle.id`.
    public static let appInvalidAppID = FindingCode(
        .app, "invalid_app_id", severity: .error,
        meaning: "A binary's application-identifier is not TEAMID.bundle.id.",
        whyAppleCares: "Files list apps as TEAMID.bundle.id; no file can list an app ID of another shape.",
        fix: "Check the signing: the app ID is the 10-character Team ID, a dot and the bundle ID.",
        example: "the app ID 'com.example.shop' is not TEAMID.bundle.id; no AASA file can list it")

    /// The binary carries no entitlements at all (unsigned, or signed without any).
    public static let appNoEntitlements = FindingCode(
        .app, "no_entitlements", severity: .info,
        meaning: "A binary carries no entitlements at all (unsigned, or signed without any).",
        whyAppleCares: "A binary without entitlements claims no domain; a build meant to claim some was not "
            + "signed as shipped.",
        fix: "Read the signed build (the exported .ipa or the .xcarchive), not an unsigned product.",
        example: "the binary carries no entitlements (unsigned, or signed without any): it claims nothing")

    /// The associated-domains entitlement is not an array of strings.
    public static let appInvalidEntitlement = FindingCode(
        .app, "invalid_entitlement", severity: .error,
        meaning: "The com.apple.developer.associated-domains entitlement is not an array of strings.",
        whyAppleCares: "The system ignores an associated-domains entitlement of another type: no domain is "
            + "claimed.",
        fix: "Make the entitlement an array of strings in the .entitlements file.",
        example: "com.apple.developer.associated-domains is not an array of strings; the system ignores it")

    /// The slices of a universal binary carry different entitlements.
    public static let appSlicesDiffer = FindingCode(
        .app, "slices_differ", severity: .error,
        meaning: "The slices of a universal (fat) binary carry different entitlements.",
        whyAppleCares: "Each device runs one slice: devices of one architecture would claim what the others do "
            + "not.",
        fix: "Sign every slice with the same entitlements (one codesign of the whole universal binary).",
        example: "slice arm64e carries different entitlements from slice arm64 "
            + "(com.apple.developer.associated-domains); every slice must claim the same")
}
