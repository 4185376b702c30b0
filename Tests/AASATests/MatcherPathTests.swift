import AASA
import TestSupport
import Testing

@Suite("Path matching follows Apple's rules P1–P6")
struct MatcherPathTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var pattern: String
        var path: String
        var matches: Bool
        var testDescription: String { "\(pattern) \(matches ? "matches" : "does not match") \(path)" }
    }

    static let cases: [Case] = [
        // P1 whole match
        Case(pattern: "abc", path: "/abcd", matches: false),
        Case(pattern: "/buy/*", path: "/buyer", matches: false),
        Case(pattern: "/abc", path: "/abc", matches: true),
        Case(pattern: "/abc", path: "/xabc", matches: false),
        // P2 leading slash optional
        Case(pattern: "abc", path: "/abc", matches: true),
        Case(pattern: "//abc", path: "/abc", matches: true),
        Case(pattern: "*abc", path: "/xabc", matches: true),
        // P3 trailing slash insignificant on either side
        Case(pattern: "/buy", path: "/buy/", matches: true),
        Case(pattern: "/buy/", path: "/buy", matches: true),
        Case(pattern: "/buy/*", path: "/buy//", matches: true),
        // P3: Apple drops EVERY trailing `/`, from the path and from the pattern (swcutil, 2026-11)
        Case(pattern: "/buy/", path: "/buy//", matches: true),
        Case(pattern: "/buy", path: "/buy///", matches: true),
        Case(pattern: "/buy//", path: "/buy", matches: true),
        Case(pattern: "/buy///", path: "/buy/", matches: true),
        Case(pattern: "/buy/*", path: "/buy///", matches: true),
        Case(pattern: "/a/b/", path: "/a/b//", matches: true),
        Case(pattern: "/", path: "//", matches: true),
        Case(pattern: "//", path: "/", matches: true),
        Case(pattern: "/buy//", path: "/buy/x", matches: false),
        Case(pattern: "/buy/", path: "/buyer//", matches: false),
        Case(pattern: "/a//b", path: "/a/b", matches: false),
        // P4 final /* also matches without the segment
        Case(pattern: "/buy/*", path: "/buy", matches: true),
        Case(pattern: "/test/*", path: "/test", matches: true),
        Case(pattern: "/buy/*", path: "/buy/42/x", matches: true),
        // P5 nothing collapses, nothing added
        Case(pattern: "/a/*/c", path: "/a/c", matches: false),
        Case(pattern: "/a/*/c", path: "/a//c", matches: true),
        Case(pattern: "/id/????", path: "/id/481", matches: false),
        Case(pattern: "/id/????", path: "/id/4815", matches: true),
        // P6 empty path counts as /
        Case(pattern: "/", path: "", matches: true),
        Case(pattern: "/", path: "/x", matches: false),
        // wildcards
        Case(pattern: "/p/?*", path: "/p/", matches: false),
        Case(pattern: "/p/?*", path: "/p/a", matches: true),
        Case(pattern: "/p/*", path: "/p/a/b/c", matches: true),
        Case(pattern: "*", path: "", matches: true),
        Case(pattern: "/*", path: "/anything/at/all", matches: true),
        Case(pattern: "/a?c", path: "/abc", matches: true),
        Case(pattern: "/a?c", path: "/ac", matches: false),
        Case(pattern: "/*.html", path: "/x/y.html", matches: true),
        Case(pattern: "/*.html", path: "/x/y.htm", matches: false),
        // `#` inside a path pattern is literal text, so SPA hash routes never match it
        Case(pattern: "/#/market/*", path: "/", matches: false),
        // case-sensitive by default
        Case(pattern: "/Buy/*", path: "/buy/1", matches: false),
    ]

    @Test("a path pattern decides as Apple's matcher does", arguments: cases)
    func pathPattern(_ testCase: Case) throws {
        let document = MatcherFixtures.document([MatcherFixtures.component(testCase.pattern)])
        let decision = try MatcherFixtures.decision(document, "https://example.com\(testCase.path)")
        #expect(decision == (testCase.matches ? .match : .noMatch))
    }

    @Test("with percentEncoded false, trailing %2F are trailing slashes once decoded, and all are dropped")
    func decodedTrailingSlashes() throws {
        let document = MatcherFixtures.document([MatcherFixtures.component("/buy/", percentEncoded: false)])
        #expect(try MatcherFixtures.decision(document, "https://example.com/buy%2F%2F") == .match)
        #expect(try MatcherFixtures.decision(document, "https://example.com/buy/%2F/") == .match)
        #expect(try MatcherFixtures.decision(document, "https://example.com/buy%2Fx") == .noMatch)
    }

    @Test("a # in the URL starts the fragment, so a hash route is matched with the # key")
    func hashRoutes() throws {
        let document = MatcherFixtures.document([MatcherFixtures.component("/", fragment: "/market/*")])
        #expect(try MatcherFixtures.decision(document, "https://example.com/#/market/7") == .match)
        #expect(try MatcherFixtures.decision(document, "https://example.com/#/other") == .noMatch)
    }
}

/// Random path patterns against Apple's path rules P1–P6 (spelled out on strings, see `URLMatcher`) and a textbook
/// glob matcher, so the segment programs, the P4 tail and the first-segment index are checked together.
@Suite("Path matching agrees with the path rules on random patterns")
struct MatcherRandomPathTests {
    static func normalizedPath(_ path: String) -> [Character] {
        var text = Array(path.isEmpty ? "/" : path)
        while text.count > 1 && text.last == "/" { text.removeLast() }
        return text
    }

    static func normalizedPattern(_ pattern: String) -> [Character] {
        var text = Array("/" + pattern.drop(while: { $0 == "/" }))
        while text.count > 1 && text.last == "/" { text.removeLast() }
        return text
    }

    static func reference(pattern: String, path: String) -> Bool {
        let text = normalizedPath(path)
        let glob = normalizedPattern(pattern)
        if glob.count >= 2 && glob.dropFirst().allSatisfy({ $0 == "*" }) { return true }
        if MatcherAdversarialTests.reference(glob, text) { return true }
        return glob.count >= 2 && glob.suffix(2) == ["/", "*"]
            && MatcherAdversarialTests.reference(Array(glob.dropLast(2)), text)
    }

    @Test("random path patterns decide as the reference", arguments: [11, 12, 13] as [UInt64])
    func agreesWithReference(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let patternAlphabet: [Character] = ["a", "b", "/", "/", "*", "?"]
        let pathAlphabet: [Character] = ["a", "b", "/"]
        for _ in 0..<300 {
            let pattern = String(
                (0..<Int.random(in: 0...7, using: &random)).map { _ in patternAlphabet.randomElement(using: &random)! })
            let path =
                "/"
                + String(
                    (0..<Int.random(in: 0...7, using: &random)).map { _ in pathAlphabet.randomElement(using: &random)! }
                )
            // Two rules, so the index decides which one is tried: the random one, then a rule for /zz only.
            let document = MatcherFixtures.document([
                MatcherFixtures.component(pattern), MatcherFixtures.component("/zz"),
            ])
            let outcome = try URLMatcher(document: document).decide(
                url: "https://example.com\(path)", appID: MatcherFixtures.app)
            let expected = Self.reference(pattern: pattern, path: path)
            #expect((outcome.rule?.index == 0) == expected, "seed \(seed): pattern \(pattern) path \(path)")
        }
    }
}
