import AASA
import Testing

/// The worked examples of Apple's documentation (associated domains, `components`, TN3155, substitution
/// variables), each confirmed with `swcutil`.
@Suite("Apple's worked examples")
struct MatcherWorkedExamplesTests {
    typealias F = MatcherFixtures

    static let rowsOneToThree = F.document([F.component("abc", query: .string("def"), fragment: "*")])

    static let documentA = F.document([
        F.component(fragment: "no_universal_links", exclude: true),
        F.component("/buy/*"),
        F.component("/help/website/*", exclude: true),
        F.component("/help/*", query: F.items(["articleNumber": "????"])),
    ])

    static let documentT = F.document([F.component("/test/*"), F.component("/path/1/*", exclude: true)])

    struct Row: Sendable, CustomTestStringConvertible {
        var number: Int
        var document: AASADocument
        var url: String
        var domain: String
        var expected: MatchDecision
        var ruleIndex: Int?
        var testDescription: String { "row \(number): \(url) → \(expected.rawValue)" }
    }

    static let rows: [Row] = [
        Row(
            number: 1, document: rowsOneToThree, url: "https://www.example.com/abc?def", domain: "www.example.com",
            expected: .match, ruleIndex: 0),
        Row(
            number: 2, document: rowsOneToThree, url: "https://www.example.com/abc", domain: "www.example.com",
            expected: .noMatch),
        Row(
            number: 3, document: rowsOneToThree, url: "https://www.example.com?def", domain: "www.example.com",
            expected: .noMatch),
        Row(
            number: 4, document: documentA, url: "https://example.com/buy/42", domain: "example.com",
            expected: .match, ruleIndex: 1),
        Row(
            number: 5, document: documentA, url: "https://example.com/buy/42#no_universal_links",
            domain: "example.com", expected: .exclude, ruleIndex: 0),
        Row(
            number: 6, document: documentA, url: "https://example.com/help/website/faq?articleNumber=4815",
            domain: "example.com", expected: .exclude, ruleIndex: 2),
        Row(
            number: 7, document: documentA, url: "https://example.com/help/123?articleNumber=4815",
            domain: "example.com", expected: .match, ruleIndex: 3),
        Row(
            number: 8, document: documentT, url: "https://example.com/test", domain: "example.com",
            expected: .match, ruleIndex: 0),
        Row(
            number: 9, document: documentT, url: "https://example.com/path/1", domain: "example.com",
            expected: .exclude, ruleIndex: 1),
        Row(
            number: 10, document: F.document([F.component(query: F.items(["productID": "12345"]))]),
            url: "https://example.com/p?productID=12345", domain: "example.com", expected: .match, ruleIndex: 0),
        Row(
            number: 11,
            document: F.document(
                [F.component("/$(lang)_$(region)/$(food)/")],
                variables: ["food": ["burrito", "pizza", "sushi", "samosa"]]),
            url: "https://example.com/en_US/pizza/", domain: "example.com", expected: .match, ruleIndex: 0),
        Row(
            number: 12, document: F.legacy(["NOT /settings/*", "NOT /activity/*", "/*"]),
            url: "https://example.com/settings/x", domain: "example.com", expected: .exclude, ruleIndex: 0),
        Row(
            number: 12, document: F.legacy(["NOT /settings/*", "NOT /activity/*", "/*"]),
            url: "https://example.com/bob", domain: "example.com", expected: .match, ruleIndex: 2),
    ]

    @Test("each worked example decides as Apple documents, by the documented rule", arguments: rows)
    func workedExample(_ row: Row) throws {
        let outcome = try URLMatcher(document: row.document).decide(url: row.url, appID: F.app, domain: row.domain)
        #expect(outcome.decision == row.expected)
        #expect(outcome.rule?.index == row.ruleIndex)
    }
}
