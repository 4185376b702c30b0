import AASA
import Testing

@Suite("Query and fragment matching")
struct MatcherQueryFragmentTests {
    typealias F = MatcherFixtures

    struct Case: CustomTestStringConvertible, Sendable {
        var rule: ComponentRule
        var url: String
        var expected: MatchDecision
        var note: String
        var testDescription: String { "\(note): \(url) → \(expected.rawValue)" }
    }

    static let cases: [Case] = [
        // string form: whole query string
        Case(rule: F.component(query: .string("a=1")), url: "/?a=1", expected: .match, note: "string form equal"),
        Case(rule: F.component(query: .string("a=1")), url: "/?a=1&b=2", expected: .noMatch, note: "whole string"),
        Case(rule: F.component(query: .string("*")), url: "/", expected: .match, note: "no query is empty, * matches"),
        Case(rule: F.component(query: .string("")), url: "/", expected: .match, note: "no query matches empty"),
        Case(rule: F.component(query: .string("?*")), url: "/", expected: .noMatch, note: "?* needs a query"),
        Case(rule: F.component(query: .string("?*")), url: "/?x", expected: .match, note: "?* with a query"),
        Case(rule: F.component(query: .string("def")), url: "/?def#frag", expected: .match, note: "query ends at #"),
        // dictionary form
        Case(
            rule: F.component(query: F.items(["productID": "12345"])), url: "/p?productID=12345", expected: .match,
            note: "dictionary item equal"),
        Case(
            rule: F.component(query: F.items(["a": "1", "b": "2"])), url: "/?b=2&a=1", expected: .match,
            note: "order of items is free"),
        Case(
            rule: F.component(query: F.items(["a": "1", "b": "2"])), url: "/?a=1", expected: .noMatch,
            note: "every listed item must match"),
        Case(
            rule: F.component(query: F.items(["b": "*"])), url: "/?a=1", expected: .match,
            note: "absent item matches * as empty"),
        Case(
            rule: F.component(query: F.items(["b": ""])), url: "/", expected: .match,
            note: "absent item matches empty"),
        Case(
            rule: F.component(query: F.items(["b": "?*"])), url: "/?a=1", expected: .noMatch,
            note: "?* requires presence"),
        Case(
            rule: F.component(query: F.items(["flag": ""])), url: "/?flag", expected: .match,
            note: "item without value is empty"),
        Case(
            rule: F.component(query: F.items(["flag": "?*"])), url: "/?flag", expected: .noMatch,
            note: "item without value is not ?*"),
        Case(
            rule: F.component(query: F.items(["id": "42"])), url: "/?id=7&id=42", expected: .noMatch,
            note: "every repeat must match (last)"),
        Case(
            rule: F.component(query: F.items(["id": "42"])), url: "/?id=42&id=7", expected: .noMatch,
            note: "every repeat must match (first)"),
        Case(
            rule: F.component(query: F.items(["id": "7"])), url: "/?id=7&id=7", expected: .match,
            note: "identical repeats match"),
        Case(
            rule: F.component(query: F.items(["id": "*"])), url: "/?id=7&id=42", expected: .match,
            note: "* accepts repeats"),
        Case(
            rule: F.component(query: F.items(["id": "?*"])), url: "/?id=7&id=42", expected: .match,
            note: "?* accepts repeats"),
        Case(
            rule: F.component(query: F.items(["a": "1"])), url: "/?a=1&zzz=9", expected: .match,
            note: "unnamed items are ignored"),
        Case(
            rule: F.component(query: F.items(["q": "a+b"])), url: "/?q=a+b", expected: .match,
            note: "+ stays +"),
        Case(
            rule: F.component(query: F.items(["q": "a b"])), url: "/?q=a+b", expected: .noMatch,
            note: "+ is never a space"),
        Case(
            rule: F.component(query: F.items(["k": "x=y"])), url: "/?k=x=y", expected: .match,
            note: "split at the first ="),
        Case(
            rule: F.component(query: .disregarded), url: "/?anything=1", expected: .match,
            note: "a disregarded dictionary matches everything"),
        // fragment
        Case(rule: F.component(fragment: "*"), url: "/", expected: .match, note: "no fragment is empty, * matches"),
        Case(rule: F.component(fragment: ""), url: "/", expected: .match, note: "no fragment matches empty"),
        Case(rule: F.component(fragment: "?*"), url: "/", expected: .noMatch, note: "?* needs a fragment"),
        Case(rule: F.component(fragment: "top"), url: "/#top", expected: .match, note: "fragment equal"),
        Case(rule: F.component(fragment: "top"), url: "/#bottom", expected: .noMatch, note: "fragment differs"),
        // AND of the three parts
        Case(
            rule: F.component("/abc", query: .string("def"), fragment: "*"), url: "/abc?def", expected: .match,
            note: "all three parts match"),
        Case(
            rule: F.component("/abc", query: .string("def"), fragment: "x"), url: "/abc?def#y", expected: .noMatch,
            note: "one failing part fails the rule"),
    ]

    @Test("query and fragment patterns decide as Apple's matcher does", arguments: cases)
    func queryAndFragment(_ testCase: Case) throws {
        let document = F.document([testCase.rule])
        #expect(try F.decision(document, "https://example.com\(testCase.url)") == testCase.expected)
    }
}
