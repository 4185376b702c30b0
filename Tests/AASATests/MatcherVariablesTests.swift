import AASA
import Testing

@Suite("Substitution variables")
struct MatcherVariablesTests {
    typealias F = MatcherFixtures

    struct Case: Sendable, CustomTestStringConvertible {
        var pattern: String
        var path: String
        var expected: MatchDecision
        var caseSensitive: Bool? = nil
        var testDescription: String { "\(pattern) on \(path) → \(expected.rawValue)" }
    }

    static let predefined: [Case] = [
        Case(pattern: "/$(alpha)", path: "/q", expected: .match),
        Case(pattern: "/$(alpha)", path: "/Q", expected: .match),
        Case(pattern: "/$(alpha)", path: "/1", expected: .noMatch),
        Case(pattern: "/$(alpha)", path: "/ab", expected: .noMatch),
        Case(pattern: "/$(upper)", path: "/Q", expected: .match),
        Case(pattern: "/$(upper)", path: "/q", expected: .noMatch),
        Case(pattern: "/$(upper)", path: "/q", expected: .match, caseSensitive: false),
        Case(pattern: "/$(lower)", path: "/q", expected: .match),
        Case(pattern: "/$(lower)", path: "/Q", expected: .noMatch),
        Case(pattern: "/$(alnum)$(alnum)", path: "/a7", expected: .match),
        Case(pattern: "/$(alnum)", path: "/-", expected: .noMatch),
        Case(pattern: "/$(digit)", path: "/7", expected: .match),
        Case(pattern: "/$(digit)", path: "/x", expected: .noMatch),
        Case(pattern: "/$(xdigit)", path: "/f", expected: .match),
        Case(pattern: "/$(xdigit)", path: "/F", expected: .match),
        Case(pattern: "/$(xdigit)", path: "/g", expected: .noMatch),
        Case(pattern: "/$(region)", path: "/GB", expected: .match),
        Case(pattern: "/$(region)", path: "/US", expected: .match),
        Case(pattern: "/$(region)", path: "/UK", expected: .noMatch),
        Case(pattern: "/$(region)", path: "/gb", expected: .noMatch),
        Case(pattern: "/$(region)", path: "/gb", expected: .match, caseSensitive: false),
        Case(pattern: "/$(region)", path: "/001", expected: .noMatch),
        Case(pattern: "/$(lang)", path: "/en", expected: .match),
        Case(pattern: "/$(lang)", path: "/fil", expected: .match),
        Case(pattern: "/$(lang)", path: "/EN", expected: .noMatch),
        Case(pattern: "/$(lang)", path: "/zz", expected: .noMatch),
        Case(pattern: "/$(lang)_$(region)/*", path: "/en_US/pizza", expected: .match),
        Case(pattern: "/$(lang)_$(region)/*", path: "/en-US/pizza", expected: .noMatch),
    ]

    @Test("predefined variables stand for Apple's exact sets", arguments: predefined)
    func predefinedVariables(_ testCase: Case) throws {
        let document = F.document([F.component(testCase.pattern, caseSensitive: testCase.caseSensitive)])
        #expect(try F.decision(document, "https://example.com\(testCase.path)") == testCase.expected)
    }

    static let custom: [Case] = [
        Case(pattern: "/$(food)/", path: "/pizza/", expected: .match),
        Case(pattern: "/$(food)/", path: "/pasta/", expected: .noMatch),
        // a literal $(food) in the URL does not match the variable
        Case(pattern: "/$(food)", path: "/$(food)", expected: .noMatch),
        // custom values may hold wildcards
        Case(pattern: "/menu/$(wild)", path: "/menu/taco-tuesday", expected: .match),
        Case(pattern: "/menu/$(wild)", path: "/menu/x1", expected: .match),
        Case(pattern: "/menu/$(wild)", path: "/menu/x12", expected: .noMatch),
        // values are case-sensitive unless caseSensitive is false
        Case(pattern: "/$(food)", path: "/PIZZA", expected: .noMatch),
        Case(pattern: "/$(food)", path: "/PIZZA", expected: .match, caseSensitive: false),
        // values may not reference other variables: $(food) inside a value is literal text
        Case(pattern: "/$(nested)", path: "/pizza", expected: .noMatch),
        // a star after a variable does not leak into its alternatives, nor one before it
        Case(pattern: "/$(food)*", path: "/sushi-roll", expected: .match),
        Case(pattern: "/*$(food)", path: "/best-sushi", expected: .match),
        Case(pattern: "/$(food)x", path: "/sushix", expected: .match),
        Case(pattern: "/$(food)x", path: "/sushiyx", expected: .noMatch),
        // overlapping alternatives share a trie without mixing their continuations
        Case(pattern: "/$(prefixes)/", path: "/ab/", expected: .match),
        Case(pattern: "/$(prefixes)/", path: "/abc/", expected: .match),
        Case(pattern: "/$(prefixes)/", path: "/abcd/", expected: .noMatch),
        // an undefined variable matches nothing
        Case(pattern: "/$(undefined)", path: "/x", expected: .noMatch),
        // an unclosed $( is literal text
        Case(pattern: "/$(oops", path: "/$(oops", expected: .match),
        // custom values override a predefined name
        Case(pattern: "/$(region)", path: "/mars", expected: .match),
    ]

    static let variables: [String: [String]] = [
        "food": ["burrito", "pizza", "sushi", "samosa"],
        "wild": ["taco-*", "x?"],
        "nested": ["$(food)"],
        "prefixes": ["ab", "abc"],
        "region": ["mars"],
    ]

    @Test("custom variables stand for any one of their values", arguments: custom)
    func customVariables(_ testCase: Case) throws {
        let document = F.document(
            [F.component(testCase.pattern, caseSensitive: testCase.caseSensitive)], variables: Self.variables)
        #expect(try F.decision(document, "https://example.com\(testCase.path)") == testCase.expected)
    }

    @Test("variables work in query values and fragments")
    func variablesInQueryAndFragment() throws {
        let document = F.document(
            [F.component(query: F.items(["food": "$(food)"]), fragment: "$(digit)")], variables: Self.variables)
        #expect(try F.decision(document, "https://example.com/?food=sushi#3") == .match)
        #expect(try F.decision(document, "https://example.com/?food=kale#3") == .noMatch)
    }
}
