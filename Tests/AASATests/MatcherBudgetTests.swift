import AASA
import Testing

/// Issue 12 item 9: every decision has a step budget. The issue's hostile inputs are decided in steps linear in
/// their size; what would still take text × pattern steps is `undecided` with "pattern too large to decide
/// safely", naming the rule. Steps are counted, never timed.
@Suite("Matching has a step budget and stays linear on hostile patterns")
struct MatcherBudgetTests {
    typealias F = MatcherFixtures

    static func steps(_ matcher: URLMatcher, _ url: String) throws -> (MatchDecision, Int) {
        let result = matcher.decideCountingSteps(try MatchableURL(url), appID: F.app)
        return (result.outcome.decision, result.steps)
    }

    @Test("a 120 KB *a*a…b rule against a 100 KB URL is decided in steps linear in their sizes")
    func issueStars() throws {
        let matcher = URLMatcher(
            document: F.document([F.component("/" + String(repeating: "*a", count: 60_000) + "b")]))
        let path = "/" + String(repeating: "a", count: 100_000)
        let (miss, missSteps) = try Self.steps(matcher, "https://example.com\(path)")
        let (hit, hitSteps) = try Self.steps(matcher, "https://example.com\(path)b")
        #expect(miss == .noMatch)
        #expect(hit == .match)
        // Pattern plus URL is 220,000 characters; a state-set simulation needed 6 billion steps here.
        #expect(missSteps < 440_000, "\(missSteps) steps")
        #expect(hitSteps < 440_000, "\(hitSteps) steps")
    }

    @Test("doubling a hostile pattern and its URL at most doubles the steps", arguments: Self.hostile)
    func linear(_ hostile: Hostile) throws {
        let small = try hostile.steps(scale: 1_000)
        let large = try hostile.steps(scale: 2_000)
        #expect(small > 0)
        #expect(Double(large) <= 2.2 * Double(small) + 100, "\(small) then \(large) steps")
    }

    struct Hostile: Sendable, CustomTestStringConvertible {
        var name: String
        var pattern: @Sendable (Int) -> ComponentRule
        var url: @Sendable (Int) -> String
        var variables: [String: [String]] = [:]
        var testDescription: String { name }

        func steps(scale: Int) throws -> Int {
            let matcher = URLMatcher(document: F.document([pattern(scale)], variables: variables))
            return try MatcherBudgetTests.steps(matcher, "https://example.com" + url(scale)).1
        }
    }

    static let hostile: [Hostile] = [
        Hostile(
            name: "*a*a…b against a…a",
            pattern: { F.component("/" + String(repeating: "*a", count: $0) + "b") },
            url: { "/" + String(repeating: "a", count: 2 * $0) }),
        Hostile(
            name: "*?*?…x against a…a",
            pattern: { F.component(String(repeating: "*?", count: $0) + "x") },
            url: { "/" + String(repeating: "a", count: 2 * $0) }),
        Hostile(
            name: "?*?*…z in the fragment",
            pattern: { F.component(fragment: String(repeating: "?*", count: $0) + "z") },
            url: { "/#" + String(repeating: "y", count: 2 * $0) }),
        Hostile(
            name: "*x*y… in a query item",
            pattern: { F.component(query: F.items(["q": String(repeating: "*x*y", count: $0 / 10)])) },
            url: { "/?q=" + String(repeating: "xy", count: $0) }),
        // Variables in a row cost pattern × text (as in any automaton), so here only the URL grows.
        Hostile(
            name: "*$(v)$(v)…b with wildcard-free values against ab…abcb",
            pattern: { _ in F.component("/*" + String(repeating: "$(v)", count: 50) + "b") },
            url: { "/" + String(repeating: "ab", count: $0) + "cb" },
            variables: ["v": ["a", "ab", "b"]]),
    ]

    @Test("text × pattern work is cut at the budget and reported as undecided, naming the rule")
    func undecided() throws {
        let segment = String(repeating: "a?", count: 3_000) + "b"
        let rules = [F.component("/never"), F.component("/*" + segment + "*")]
        let matcher = URLMatcher(document: F.document(rules), stepBudget: 1_000_000)
        let url = try MatchableURL("https://example.com/" + String(repeating: "a", count: 20_000))
        let (outcome, steps) = matcher.decideCountingSteps(url, appID: F.app)
        #expect(outcome.decision == .undecided)
        #expect(outcome.rule?.jsonPath == "$.applinks.details[0].components[1]")
        #expect(outcome.reason?.hasPrefix("pattern too large to decide safely: the rule at $.applinks") == true)
        #expect(steps > 1_000_000 && steps < 1_020_000, "\(steps) steps")
        // A URL that decides early still gets its answer under the same budget.
        #expect(try matcher.decide(url: "https://example.com/never", appID: F.app).decision == .match)
    }

    @Test("the default budget decides ordinary and large real-shaped files")
    func defaultBudget() throws {
        let rules = (0..<3_000).map { F.component("/section\($0)/*/item-????/*.html", exclude: $0 % 7 == 0) }
        let matcher = URLMatcher(document: F.document(rules))
        let (decision, steps) = try Self.steps(matcher, "https://example.com/section2999/a/item-1234/x.html")
        #expect(decision == .match)
        #expect(steps < 1_000, "\(steps) steps: the first-segment index skips the other 2,999 rules")
    }
}
