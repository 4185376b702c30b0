import AASA
import Testing

/// Apple's worked examples again, this time from JSON text through the parser, so the model the parser builds
/// and the matcher's reading of it agree (rule positions included).
@Suite("Matching documents parsed from JSON")
struct MatcherFromJSONTests {
    static let app = "ABCDE12345.com.example.app"

    static func matcher(_ json: String) throws -> URLMatcher {
        let result = AASAParser.parse(Array(json.utf8))
        return URLMatcher(document: try #require(result.document))
    }

    @Test("documentation example A decides by the documented rules")
    func exampleA() throws {
        let matcher = try Self.matcher(
            """
            {"applinks": {"details": [{"appIDs": ["\(Self.app)"], "components": [
              {"#": "no_universal_links", "exclude": true, "comment": "opt out"},
              {"/": "/buy/*"},
              {"/": "/help/website/*", "exclude": true},
              {"/": "/help/*", "?": {"articleNumber": "????"}}]}]}}
            """)
        let rows: [(String, MatchDecision, String?)] = [
            ("https://example.com/buy/42", .match, "$.applinks.details[0].components[1]"),
            ("https://example.com/buy/42#no_universal_links", .exclude, "$.applinks.details[0].components[0]"),
            (
                "https://example.com/help/website/faq?articleNumber=4815", .exclude,
                "$.applinks.details[0].components[2]"
            ),
            ("https://example.com/help/123?articleNumber=4815", .match, "$.applinks.details[0].components[3]"),
            ("https://example.com/help/123?articleNumber=481", .noMatch, nil),
        ]
        for (url, decision, rule) in rows {
            let outcome = try matcher.decide(url: url, appID: Self.app, domain: "example.com")
            #expect(outcome.decision == decision, "\(url)")
            #expect(outcome.rule?.jsonPath == rule, "\(url)")
        }
    }

    @Test("substitution variables, defaults at both levels and a non-string query value, from JSON")
    func variablesAndDefaults() throws {
        let matcher = try Self.matcher(
            """
            {"applinks": {
              "defaults": {"caseSensitive": false},
              "substitutionVariables": {"food": ["burrito", "pizza", "sushi", "samosa"]},
              "details": [{"appIDs": ["\(Self.app)"], "defaults": {"percentEncoded": false},
                "components": [
                  {"/": "/$(lang)_$(region)/$(food)/"},
                  {"/": "/café/*"},
                  {"/": "/any", "?": {"n": 1}},
                  {"/": "/Strict/*", "caseSensitive": true}]}]}}
            """)
        #expect(try matcher.decide(url: "https://example.com/en_US/pizza/", appID: Self.app).decision == .match)
        #expect(try matcher.decide(url: "https://example.com/EN_us/PIZZA", appID: Self.app).decision == .match)
        #expect(try matcher.decide(url: "https://example.com/caf%C3%A9/menu", appID: Self.app).decision == .match)
        #expect(try matcher.decide(url: "https://example.com/any?n=2", appID: Self.app).decision == .match)
        #expect(try matcher.decide(url: "https://example.com/strict/1", appID: Self.app).decision == .noMatch)
        #expect(try matcher.decide(url: "https://example.com/Strict/1", appID: Self.app).decision == .match)
    }

    @Test("the 2015 dictionary form of details and legacy paths, from JSON")
    func legacyDictionaryForm() throws {
        let matcher = try Self.matcher(
            """
            {"applinks": {"apps": [], "details": {
              "\(Self.app)": {"paths": ["NOT /settings/*", "/*"]},
              "ZYXWV98765.com.example.other": {"paths": ["/other/*"]}}}}
            """)
        #expect(try matcher.decide(url: "https://example.com/settings/a", appID: Self.app).decision == .exclude)
        #expect(try matcher.decide(url: "https://example.com/bob", appID: Self.app).decision == .match)
        let other = try matcher.decide(url: "https://example.com/other/1", appID: "ZYXWV98765.com.example.other")
        #expect(other.decision == .match)
        #expect(other.rule?.entry == 1)
    }

    @Test("legacy appID and modern appIDs both name the entry's apps")
    func appIDForms() throws {
        let matcher = try Self.matcher(
            """
            {"applinks": {"details": [{"appID": "\(Self.app)", "components": [{"/": "/a"}]},
                                      {"appIDs": ["ZYXWV98765.com.example.other"], "paths": ["/b"]}]}}
            """)
        #expect(try matcher.decide(url: "https://example.com/a", appID: Self.app).decision == .match)
        #expect(
            try matcher.decide(url: "https://example.com/b", appID: "ZYXWV98765.com.example.other").decision == .match)
    }
}
