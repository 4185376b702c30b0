import AASA

extension FindingCode {
    /// The codes of expectations from configuration or `check --expect-…`.
    public static let expectation: [FindingCode] = [.expectAppMissing, .expectURL, .expectAppClaim]

    public static let expectAppMissing = FindingCode(
        .expectation, "app_missing", severity: .error, concernsContent: true,
        meaning: "An expected app ID is not listed (the detail names the service and the copy: origin or cdn).",
        whyAppleCares: "An app that is not listed gets no universal links, passwords or App Clip from the domain.",
        fix: "Add the app ID to the file, or correct the expectation.",
        example: "ABCDE12345.com.example.app is not listed in applinks on the CDN copy: add it to the file")

    public static let expectURL = FindingCode(
        .expectation, "url", severity: .error, concernsContent: true,
        meaning: "A URL does not get the expected decision for the expected app (the detail names copy, decision, "
            + "rule).",
        whyAppleCares: "Devices decide per URL from the rules; a wrong decision opens the browser, or the app, "
            + "unexpectedly.",
        fix: "Change the file's rules so the URL gets the expected decision, or correct the expectation.",
        example: "https://example.com/help for ABCDE12345.com.example.app is excluded by the rule at "
            + "$.applinks.details[0].components[1] on the origin copy, expected to match")

    public static let expectAppClaim = FindingCode(
        .expectation, "app_claim", severity: .error, concernsContent: false,
        meaning: "An associated-domains entry of the app read with `check --app` or `apps:` cannot work as shipped "
            + "(`?mode=developer` in a distribution build: error; in a development build: info). The detail names "
            + "the app file, the binary and the entry.",
        whyAppleCares: "Devices of customers ignore developer-mode entries: the domain gets no universal links from "
            + "this build, whatever the file says.",
        fix: "Remove `?mode=developer` from the release build's entitlements (keep it in a Debug configuration).",
        example: "Shop.ipa Payload/Shop.app claims applinks:staging.example.com?mode=developer in a distribution "
            + "build: customers' devices ignore it")
}
