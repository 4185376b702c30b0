import AASA
import Testing

@Suite("caseSensitive, percentEncoded and defaults at three levels")
struct MatcherOptionsTests {
    typealias F = MatcherFixtures

    @Test(
        "caseSensitive false folds letters in every part",
        arguments: [
            ("/Buy/*", "/buy/1", MatchDecision.match), ("/buy/*", "/BUY/1", .match), ("/shop", "/shop", .match),
        ])
    func caseInsensitive(pattern: String, path: String, expected: MatchDecision) throws {
        let document = F.document([F.component(pattern, caseSensitive: false)])
        #expect(try F.decision(document, "https://example.com\(path)") == expected)
    }

    @Test("caseSensitive false applies to query values and fragments")
    func caseInsensitiveQueryAndFragment() throws {
        let document = F.document([F.component(query: F.items(["ref": "Mail"]), fragment: "Top", caseSensitive: false)])
        #expect(try F.decision(document, "https://example.com/?ref=MAIL#top") == .match)
        let strict = F.document([F.component(query: F.items(["ref": "Mail"]))])
        #expect(try F.decision(strict, "https://example.com/?ref=mail") == .noMatch)
    }

    @Test(
        "the most specific caseSensitive wins (observed with swcutil)",
        arguments: [
            ("/loose/1", MatchDecision.match), ("/strict/1", .noMatch), ("/Strict/1", .match),
        ])
    func caseLevels(path: String, expected: MatchDecision) throws {
        let document = F.document(
            [F.component("/Loose/*", caseSensitive: false), F.component("/Strict/*")],
            entryDefaults: F.component(caseSensitive: true),
            serviceDefaults: F.component(caseSensitive: false))
        #expect(try F.decision(document, "https://example.com\(path)") == expected)
    }

    @Test("applinks.defaults caseSensitive false applies when nothing more specific says otherwise")
    func serviceLevelCase() throws {
        let document = F.document([F.component("/Loose/*")], serviceDefaults: F.component(caseSensitive: false))
        #expect(try F.decision(document, "https://example.com/LOOSE/x") == .match)
    }

    struct EncodingCase: Sendable, CustomTestStringConvertible {
        var pattern: String
        var percentEncoded: Bool?
        var path: String
        var expected: MatchDecision
        var testDescription: String { "\(pattern) percentEncoded=\(String(describing: percentEncoded)) on \(path)" }
    }

    static let encodingCases: [EncodingCase] = [
        EncodingCase(pattern: "/a%20b", percentEncoded: nil, path: "/a%20b", expected: .match),
        EncodingCase(pattern: "/a b", percentEncoded: nil, path: "/a%20b", expected: .noMatch),
        EncodingCase(pattern: "/a/b", percentEncoded: nil, path: "/a%2Fb", expected: .noMatch),
        EncodingCase(pattern: "/caf%C3%A9", percentEncoded: nil, path: "/caf%c3%a9", expected: .noMatch),
        EncodingCase(pattern: "/café", percentEncoded: true, path: "/caf%C3%A9", expected: .noMatch),
        EncodingCase(pattern: "/a b", percentEncoded: false, path: "/a%20b", expected: .match),
        EncodingCase(pattern: "/a%20b", percentEncoded: false, path: "/a%20b", expected: .noMatch),
        EncodingCase(pattern: "/a/b", percentEncoded: false, path: "/a%2Fb", expected: .match),
        EncodingCase(pattern: "/café/*", percentEncoded: false, path: "/caf%C3%A9/menu", expected: .match),
        // a raw non-ASCII URL is encoded the way a device holds it
        EncodingCase(pattern: "/caf%C3%A9", percentEncoded: nil, path: "/café", expected: .match),
        EncodingCase(pattern: "/café", percentEncoded: false, path: "/café", expected: .match),
        // decoded first, then P3: a trailing %2F is a trailing slash once decoded
        EncodingCase(pattern: "/buy", percentEncoded: false, path: "/buy%2F", expected: .match),
        EncodingCase(pattern: "/buy/*", percentEncoded: false, path: "/buy%2F", expected: .match),
        EncodingCase(pattern: "/buy", percentEncoded: nil, path: "/buy%2F", expected: .noMatch),
    ]

    @Test("percentEncoded decides whether the URL is decoded before comparing", arguments: encodingCases)
    func percentEncoding(_ testCase: EncodingCase) throws {
        let document = F.document([F.component(testCase.pattern, percentEncoded: testCase.percentEncoded)])
        #expect(try F.decision(document, "https://example.com\(testCase.path)") == testCase.expected)
    }

    @Test("percentEncoded false decodes query items after splitting, so %26 stays inside a value")
    func decodedQueryItems() throws {
        let document = F.document([F.component(query: F.items(["q": "a&b"]), percentEncoded: false)])
        #expect(try F.decision(document, "https://example.com/?q=a%26b") == .match)
        let encoded = F.document([F.component(query: F.items(["q": "a%26b"]))])
        #expect(try F.decision(encoded, "https://example.com/?q=a%26b") == .match)
    }

    @Test("defaults may carry /, ?, # and exclude")
    func defaultsCarryPatterns() throws {
        let scoped = F.document([F.component(fragment: "*")], serviceDefaults: F.component("/foo/*"))
        #expect(try F.decision(scoped, "https://example.com/bar") == .noMatch)
        #expect(try F.decision(scoped, "https://example.com/foo/1") == .match)

        let blocked = F.document([F.component("/*")], serviceDefaults: F.component(exclude: true))
        #expect(try F.decision(blocked, "https://example.com/anything") == .exclude)

        let query = F.document([F.component("/s")], entryDefaults: F.component(query: F.items(["q": "?*"])))
        #expect(try F.decision(query, "https://example.com/s?q=1") == .match)
        #expect(try F.decision(query, "https://example.com/s") == .noMatch)

        let fragment = F.document([F.component("/s")], serviceDefaults: F.component(fragment: "keep"))
        #expect(try F.decision(fragment, "https://example.com/s#keep") == .match)
        #expect(try F.decision(fragment, "https://example.com/s#other") == .noMatch)
    }

    @Test("details defaults override applinks defaults, components override both")
    func defaultsPrecedence() throws {
        let document = F.document(
            [F.component("/a/*"), F.component("/b/*", exclude: false)],
            entryDefaults: F.component(exclude: true),
            serviceDefaults: F.component(exclude: false))
        #expect(try F.decision(document, "https://example.com/a/1") == .exclude)
        #expect(try F.decision(document, "https://example.com/b/1") == .match)
    }

    @Test("an empty component, or one with only unknown keys, matches every URL")
    func emptyComponentMatchesAll() throws {
        let document = F.document([F.component()])
        #expect(try F.decision(document, "https://example.com/x/y?z=1#w") == .match)
    }
}
