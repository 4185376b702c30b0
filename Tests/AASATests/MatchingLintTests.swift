import AASA
import Testing

@Suite("Lint rules that need matching semantics")
struct MatchingLintTests {
    typealias F = MatcherFixtures

    static func codes(_ document: AASADocument) -> [String] {
        MatchingLint.findings(in: document).map { "\($0.code) \($0.path ?? "")" }
    }

    @Test("an exclude after a catch-all rule is unreachable")
    func excludeAfterCatchAll() {
        let document = F.document([F.component("/*"), F.component("/account/*", exclude: true)])
        #expect(Self.codes(document) == ["aasa.unreachable_rule $.applinks.details[0].components[1]"])
    }

    @Test("a narrower rule after a prefix rule is unreachable; a broader one is not")
    func prefixInclusion() {
        let narrower = F.document([F.component("/shop/*"), F.component("/shop/cart")])
        #expect(Self.codes(narrower) == ["aasa.unreachable_rule $.applinks.details[0].components[1]"])
        let broader = F.document([F.component("/shop/cart"), F.component("/shop/*")])
        #expect(Self.codes(broader).isEmpty)
        let directory = F.document([F.component("/shop/*"), F.component("/shop/")])
        #expect(Self.codes(directory) == ["aasa.unreachable_rule $.applinks.details[0].components[1]"])
    }

    @Test("different query or fragment constraints keep a later rule reachable")
    func partsMustAllCover() {
        let query = F.document([F.component("/p/*", query: F.items(["a": "1"])), F.component("/p/x")])
        #expect(Self.codes(query).isEmpty)
        let narrowerQuery = F.document([
            F.component("/p/*", query: F.items(["a": "1"])), F.component("/p/x", query: F.items(["a": "1", "b": "2"])),
        ])
        #expect(Self.codes(narrowerQuery) == ["aasa.unreachable_rule $.applinks.details[0].components[1]"])
        let fragment = F.document([F.component("/p/*", fragment: "x"), F.component("/p/y")])
        #expect(Self.codes(fragment).isEmpty)
    }

    @Test("different case or encoding settings are not compared")
    func settingsDiffer() {
        let document = F.document([F.component("/Shop/*"), F.component("/shop/x", caseSensitive: false)])
        #expect(Self.codes(document).isEmpty)
    }

    @Test("an exclude whose query item is * blocks every URL: * also matches an absent item")
    func starQueryItemExclude() throws {
        let document = F.document([F.component(query: F.items(["no_universal_link": "*"]), exclude: true)])
        let findings = MatchingLint.findings(in: document)
        let finding = try #require(findings.first)
        #expect(finding.code == "aasa.exclude_matches_all")
        #expect(finding.message.contains("?*"))
        // and indeed the matcher blocks a URL without the item
        #expect(try F.decision(document, "https://example.com/anything") == .exclude)
        let fixed = F.document([F.component(query: F.items(["no_universal_link": "?*"]), exclude: true)])
        #expect(MatchingLint.findings(in: fixed).isEmpty)
    }

    @Test("an exclude inherited from applinks.defaults on a catch-all rule is reported")
    func defaultsExclude() {
        let document = F.document([F.component("/*")], serviceDefaults: F.component(exclude: true))
        #expect(Self.codes(document) == ["aasa.exclude_matches_all $.applinks.details[0].components[0]"])
    }

    @Test("legacy paths: NOT /* excludes everything, and later paths are unreachable")
    func legacy() {
        let document = F.legacy(["NOT /*", "/x"])
        #expect(
            Self.codes(document) == [
                "aasa.exclude_matches_all $.applinks.details[0].paths[0]",
                "aasa.unreachable_rule $.applinks.details[0].paths[1]",
            ])
        #expect(Self.codes(F.legacy(["NOT /settings/*", "/*"])).isEmpty)
    }

    @Test("variables are never assumed to cover each other")
    func variablesNotCompared() {
        let document = F.document([F.component("/$(lang)/*"), F.component("/en/x")], variables: [:])
        #expect(Self.codes(document).isEmpty)
    }
}
