import AASA
import Testing

/// The automaton against a plain backtracking reference on small random patterns, and adversarial inputs that
/// would take a backtracking engine exponential time.
@Suite("Glob matching agrees with a reference and stays linear")
struct MatcherAdversarialTests {
    typealias F = MatcherFixtures

    /// A deterministic generator, so a failure names a seed that reproduces it.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

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
        var random = SplitMix(state: seed)
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
        let start = ContinuousClock.now
        #expect(try matcher.decide(url: "https://example.com\(path)", appID: F.app).decision == .noMatch)
        #expect(try matcher.decide(url: "https://example.com\(path)x", appID: F.app).decision == .match)
        #expect(ContinuousClock.now - start < .seconds(10))
    }

    @Test("a variable with thousands of wildcard values still matches")
    func manyWildcardValues() throws {
        let values = (0..<2000).map { "v\($0)-*" }
        let document = F.document([F.component("/$(v)$(v)")], variables: ["v": values])
        #expect(try F.decision(document, "https://example.com/v1999-xv7-y") == .match)
        #expect(try F.decision(document, "https://example.com/v2000-x") == .noMatch)
    }
}
