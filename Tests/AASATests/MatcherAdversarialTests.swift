import AASA
import TestSupport
import Testing

/// The automaton against a plain backtracking reference on small random patterns, and adversarial inputs that
/// would take a backtracking engine exponential time.
@Suite("Glob matching agrees with a reference and stays linear")
struct MatcherAdversarialTests {
    typealias F = MatcherFixtures

    /// Textbook recursive glob matching over fragments and queries (no path rules), small inputs only.
    static func reference(_ pattern: [Character], _ text: [Character]) -> Bool {
        guard let head = pattern.first else { return text.isEmpty }
        let rest = Array(pattern.dropFirst())
        switch head {
        case "*": return (0...text.count).contains { reference(rest, Array(text.dropFirst($0))) }
        case "?": return !text.isEmpty && reference(rest, Array(text.dropFirst()))
        default: return text.first == head && reference(rest, Array(text.dropFirst()))
        }
    }

    @Test("random fragment patterns decide exactly as a reference glob matcher", arguments: [1, 2, 3, 4] as [UInt64])
    func agreesWithReference(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let alphabet: [Character] = ["a", "b", "*", "?"]
        for _ in 0..<400 {
            let pattern = String(
                (0..<Int.random(in: 0...7, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
            let text = String(
                (0..<Int.random(in: 0...8, using: &random)).map { _ in
                    (["a", "b"] as [Character]).randomElement(using: &random)!
                })
            let document = F.document([F.component(fragment: pattern)])
            let decision = try F.decision(document, "https://example.com/#\(text)")
            let expected = Self.reference(Array(pattern), Array(text))
            #expect(decision == (expected ? .match : .noMatch), "seed \(seed): pattern \(pattern) text \(text)")
        }
    }

    @Test("many stars against a long near-miss finish (would be exponential with backtracking)")
    func manyStars() throws {
        let pattern = "/" + String(repeating: "*a", count: 40) + "b"
        let path = "/" + String(repeating: "a", count: 2000)
        let document = F.document([
            F.component(pattern), F.component(fragment: String(repeating: "*?", count: 50) + "z"),
        ])
        let matcher = URLMatcher(document: document)
        #expect(
            try matcher.decide(url: "https://example.com\(path)#\(String(repeating: "y", count: 2000))", appID: F.app)
                .decision == .noMatch)
        #expect(try matcher.decide(url: "https://example.com\(path)b", appID: F.app).decision == .match)
    }

    @Test(
        "60 000 alternating *? against a 100 KB path finish (runs of wildcards are reordered to ?s then *)",
        .timeLimit(.minutes(1)))
    func alternatingWildcards() throws {
        let document = F.document([F.component(String(repeating: "*?", count: 60_000) + "x")])
        let matcher = URLMatcher(document: document)
        let path = "/" + String(repeating: "a", count: 100_000)
        #expect(try matcher.decide(url: "https://example.com\(path)", appID: F.app).decision == .noMatch)
        #expect(try matcher.decide(url: "https://example.com\(path)x", appID: F.app).decision == .match)
    }

    @Test("a variable with thousands of wildcard values still matches")
    func manyWildcardValues() throws {
        let values = (0..<2000).map { "v\($0)-*" }
        let document = F.document([F.component("/$(v)$(v)")], variables: ["v": values])
        #expect(try F.decision(document, "https://example.com/v1999-xv7-y") == .match)
        #expect(try F.decision(document, "https://example.com/v2000-x") == .noMatch)
    }

    /// 20 000 values used 1 000 times would be 20 million states if each use copied the values; the variable is
    /// compiled once and called, so this is as quick as one use.
    @Test("a large variable used many times in many rules is compiled once", .timeLimit(.minutes(1)))
    func largeVariableUsedOften() throws {
        let values = (0..<20_000).map { "w\($0)" }
        let pattern = "/" + Array(repeating: "$(v)", count: 1_000).joined(separator: "-")
        let rules = (0..<50).map { F.component(pattern + "/\($0)") } + [F.component("/$(v)/$(v)*")]
        let document = F.document(rules, variables: ["v": values])
        let matcher = URLMatcher(document: document)
        let long = "/" + Array(repeating: "w19999", count: 1_000).joined(separator: "-") + "/7"
        #expect(try matcher.decide(url: "https://example.com\(long)", appID: F.app).rule?.index == 7)
        #expect(try matcher.decide(url: "https://example.com/w5/w6tail", appID: F.app).rule?.index == 50)
        #expect(try matcher.decide(url: "https://example.com/w5/x", appID: F.app).decision == .noMatch)
        #expect(try matcher.decide(url: "https://example.com/w20000/w1", appID: F.app).decision == .noMatch)
    }

    @Test("variables matching the empty text, next to each other and to stars")
    func emptyValues() throws {
        let document = F.document([F.component("/a$(e)$(e)b$(s)c")], variables: ["e": ["", "x"], "s": ["*", "y?"]])
        for (path, expected) in [
            ("/ab", MatchDecision.noMatch), ("/abc", .match), ("/axbc", .match), ("/axxbc", .match),
            ("/axxxbc", .noMatch), ("/abyzc", .match), ("/ab-anything-c", .match), ("/ac", .noMatch),
        ] {
            #expect(try F.decision(document, "https://example.com\(path)") == expected, "\(path)")
        }
    }
}

/// The walk for wildcard-free variables and the first-segment rule index, against references.
@Suite("Variable walks and the rule index agree with references")
struct MatcherVariableWalkTests {
    typealias F = MatcherFixtures

    /// Textbook recursive matching with `v` standing for any of `values` (written `V` in the pattern).
    static func reference(_ pattern: [Character], _ text: [Character], values: [String]) -> Bool {
        guard let head = pattern.first else { return text.isEmpty }
        let rest = Array(pattern.dropFirst())
        switch head {
        case "*": return (0...text.count).contains { reference(rest, Array(text.dropFirst($0)), values: values) }
        case "?": return !text.isEmpty && reference(rest, Array(text.dropFirst()), values: values)
        case "V":
            return values.contains { value in
                text.starts(with: value) && reference(rest, Array(text.dropFirst(value.count)), values: values)
            }
        default: return text.first == head && reference(rest, Array(text.dropFirst()), values: values)
        }
    }

    @Test(
        "random fragment patterns with a wildcard-free variable decide as the reference",
        arguments: [5, 6, 7] as [UInt64])
    func agreesWithReference(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let values = ["a", "ab", "", "ba"]
        let alphabet: [Character] = ["a", "b", "*", "?", "V", "V"]
        for _ in 0..<300 {
            let pattern = (0..<Int.random(in: 1...6, using: &random)).map { _ in alphabet.randomElement(using: &random)!
            }
            let text = (0..<Int.random(in: 0...8, using: &random)).map { _ in
                (["a", "b"] as [Character]).randomElement(using: &random)!
            }
            let written = pattern.map { $0 == "V" ? "$(v)" : String($0) }.joined()
            let document = F.document([F.component(fragment: written)], variables: ["v": values])
            let decision = try F.decision(document, "https://example.com/#\(String(text))")
            let expected = Self.reference(pattern, text, values: values)
            #expect(decision == (expected ? .match : .noMatch), "seed \(seed): \(written) on \(String(text))")
        }
    }

    @Test("indexed and unindexed rules, in several forms, still decide in document order")
    func indexKeepsOrder() throws {
        let rules = [
            F.component("/a*", query: .string("first")),
            F.component("/a/b", exclude: true),
            F.component("/A/*", caseSensitive: false),
            F.component("/x/y/*", exclude: true, percentEncoded: false),
            F.component("*"),
        ]
        let matcher = URLMatcher(document: F.document(rules))
        for (url, index) in [
            ("/a/b?first", 0), ("/a/b", 1), ("/A/b", 2), ("/a/c", 2), ("/x%2Fy/z", 3), ("/x/y", 3), ("/x", 4),
            ("/X%2Fy", 4), ("/", 4),
        ] {
            #expect(try matcher.decide(url: "https://example.com\(url)", appID: F.app).rule?.index == index, "\(url)")
        }
    }
}
