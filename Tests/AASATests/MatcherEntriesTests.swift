import AASA
import Testing

@Suite("Entries, rule order, legacy paths and hosts")
struct MatcherEntriesTests {
    typealias F = MatcherFixtures

    @Test("the first matching rule decides, and an exclude stops evaluation")
    func firstMatchWins() throws {
        let document = F.document([F.component("/a/*", exclude: true), F.component("/*")])
        let matcher = URLMatcher(document: document)
        let excluded = try matcher.decide(url: "https://example.com/a/1", appID: F.app)
        #expect(excluded.decision == .exclude)
        #expect(excluded.rule?.index == 0)
        #expect(excluded.rule?.jsonPath == "$.applinks.details[0].components[0]")
        let matched = try matcher.decide(url: "https://example.com/b", appID: F.app)
        #expect(matched.decision == .match)
        #expect(matched.rule?.index == 1)
        #expect(matched.rule?.pattern?.path == "/*")
    }

    @Test("an exclude in an earlier entry is not rescued by a later entry for the same app")
    func excludeStopsAcrossEntries() throws {
        let first = AppLinksEntry(
            appIDs: [F.app],
            components: F.numbered([F.component("/x/*", exclude: true)], under: "$.applinks.details[0]"),
            jsonPath: "$.applinks.details[0]")
        let second = AppLinksEntry(
            appIDs: [F.app], components: F.numbered([F.component("/*")], under: "$.applinks.details[1]"),
            jsonPath: "$.applinks.details[1]")
        let document = F.document(entries: [first, second])
        #expect(try F.decision(document, "https://example.com/x/1") == .exclude)
        let outcome = try URLMatcher(document: document).decide(url: "https://example.com/y", appID: F.app)
        #expect(outcome.decision == .match)
        #expect(outcome.rule?.entry == 1)
    }

    @Test("only entries that list the app are used, so apps can split a site")
    func entriesForOtherApps() throws {
        let mine = AppLinksEntry(
            appIDs: [F.app], components: F.numbered([F.component("/shop/*")], under: "$.applinks.details[0]"),
            jsonPath: "$.applinks.details[0]")
        let theirs = AppLinksEntry(
            appIDs: [F.otherApp], components: F.numbered([F.component("/*")], under: "$.applinks.details[1]"),
            jsonPath: "$.applinks.details[1]")
        let document = F.document(entries: [mine, theirs])
        #expect(try F.decision(document, "https://example.com/shop/1") == .match)
        #expect(try F.decision(document, "https://example.com/blog") == .noMatch)
        #expect(try F.decision(document, "https://example.com/blog", app: F.otherApp) == .match)
        let unlisted = try URLMatcher(document: document).decide(url: "https://example.com/", appID: "NOPE000000.x")
        #expect(unlisted.decision == .noMatch)
        #expect(unlisted.reason?.contains("no applinks details entry lists") == true)
    }

    @Test("legacy paths: NOT excludes, first match decides (Apple's forum example, confirmed with swcutil)")
    func legacyPaths() throws {
        let document = F.legacy(["NOT /settings/*", "NOT /activity/*", "/*"])
        let matcher = URLMatcher(document: document)
        let settings = try matcher.decide(url: "https://example.com/settings/x", appID: F.app)
        #expect(settings.decision == .exclude)
        #expect(settings.rule?.kind == .paths)
        #expect(settings.rule?.path == "NOT /settings/*")
        #expect(try F.decision(document, "https://example.com/bob") == .match)
        #expect(try F.decision(document, "https://example.com/activity") == .exclude)
    }

    @Test("legacy paths match the path only; NOT needs its space")
    func legacyPathOnly() throws {
        let document = F.legacy(["/search", "NOT/x"])
        #expect(try F.decision(document, "https://example.com/search?q=1#top") == .match)
        #expect(try F.decision(document, "https://example.com/NOT/x") == .match)
    }

    @Test("paths are ignored when components are present")
    func componentsHidePaths() throws {
        let document = F.legacy(["/*"], components: [F.component("/only/*")])
        #expect(try F.decision(document, "https://example.com/elsewhere") == .noMatch)
        #expect(try F.decision(document, "https://example.com/only/1") == .match)
        let empty = F.legacy(["/*"], components: [])
        #expect(try F.decision(empty, "https://example.com/elsewhere") == .noMatch)
    }

    @Test(
        "the host is compared case-insensitively, and only when a domain is given",
        arguments: [
            ("https://EXAMPLE.com/x", "example.com", MatchDecision.match),
            ("https://example.com./x", "Example.COM", .match),
            ("https://user@example.com:443/x", "example.com", .match),
            ("https://www.example.com/x", "example.com", .noMatch),
            ("https://www.example.com/x", "*.example.com", .match),
            ("https://evil-example.com/x", "*.example.com", .noMatch),
            // "*.example.com does not match example.com because of the period after the asterisk" (Apple)
            ("https://example.com/x", "*.example.com", .noMatch),
            ("https://a.b.example.com/x", "*.example.com", .match),
        ])
    func hosts(url: String, domain: String, expected: MatchDecision) throws {
        let matcher = URLMatcher(document: F.document([F.component("/*")]))
        #expect(try matcher.decide(url: url, appID: F.app, domain: domain).decision == expected)
        #expect(try matcher.decide(url: url, appID: F.app).decision == .match)
    }

    @Test(
        "URLs that cannot be universal links are refused with a reason",
        arguments: [
            "example.com/x", "ftp://example.com/x", "https:///x", "/just/a/path",
        ])
    func invalidURLs(url: String) {
        let matcher = URLMatcher(document: F.document([F.component("/*")]))
        #expect(throws: URLMatchError.self) { try matcher.decide(url: url, appID: F.app) }
    }

    @Test("a document without applinks matches nothing")
    func noApplinks() throws {
        let document = AASADocument(json: .null, webcredentials: AppListService(apps: [F.app]))
        #expect(try F.decision(document, "https://example.com/") == .noMatch)
    }
}
