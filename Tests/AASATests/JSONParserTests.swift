import AASA
import Testing

@Suite("JSON parser")
struct JSONParserTests {
    @Test(
        "valid JSON texts parse to the expected values",
        arguments: [
            (#"{}"#, JSONValue.object([])),
            (#"[]"#, .array([])),
            (#"  "a"  "#, .string("a")),
            (#"-1.5e+3"#, .number("-1.5e+3")),
            (#"[true,false,null]"#, .array([.bool(true), .bool(false), .null])),
            (#""\u00e9\ud83d\ude00\n\/""#, .string("é😀\n/")),
            (#""\u0000""#, .string("\u{0}")),
            (
                "\n\n{\"a\" : [ 1 ,2 ] }\r\n",
                .object([JSONMember(key: "a", value: .array([.number("1"), .number("2")]))])
            ),
            (
                #"{"a":1,"a":2}"#,
                .object([JSONMember(key: "a", value: .number("1")), JSONMember(key: "a", value: .number("2"))])
            ),
        ])
    func validTexts(text: String, expected: JSONValue) throws {
        #expect(try JSONParser().parse(Array(text.utf8)) == expected)
    }

    @Test(
        "invalid JSON texts fail at the right line and column",
        arguments: [
            ("", 1, 1, "end of input"),
            ("{\"a\":1,}", 1, 8, "trailing comma"),
            ("[1,]", 1, 4, "trailing comma"),
            ("{\n  \"a\": 1\n  \"b\": 2\n}", 3, 3, "expected ',' or '}'"),
            ("{} x", 1, 4, "after the JSON value"),
            ("[01]", 1, 2, "leading zero"),
            ("[1.]", 1, 4, "digit after '.'"),
            ("\"abc", 1, 1, "unterminated string"),
            ("\"a\tb\"", 1, 3, "control character"),
            ("\"\\ud800\"", 1, 2, "lone high surrogate"),
            ("\"\\udc00\"", 1, 2, "lone low surrogate"),
            ("\"\\ud800\\u0041\"", 1, 2, "followed by"),
            ("\"\\x\"", 1, 2, "invalid escape"),
            ("tru", 1, 1, "invalid literal"),
            ("{'a': 1}", 1, 2, "expected a string key"),
            ("<html>", 1, 1, "expected a value"),
            ("\"é\u{1}\"", 1, 3, "control character"),
        ])
    func invalidTexts(text: String, line: Int, column: Int, messagePart: String) {
        #expect {
            try JSONParser().parse(Array(text.utf8))
        } throws: { error in
            guard let error = error as? JSONParseError else { return false }
            return error.line == line && error.column == column && error.message.contains(messagePart)
        }
    }

    @Test("invalid UTF-8 inside a string is reported at the offending byte")
    func invalidUTF8() {
        let bytes: [UInt8] = Array("[\"ab".utf8) + [0xC3, 0x28] + Array("\"]".utf8)
        #expect {
            try JSONParser().parse(bytes)
        } throws: { error in
            (error as? JSONParseError)?.offset == 4
        }
    }

    @Test(
        "overlong encodings and encoded surrogates are invalid UTF-8",
        arguments: [[0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82]] as [[UInt8]])
    func invalidSequences(sequence: [UInt8]) {
        let bytes: [UInt8] = [UInt8(ascii: "\"")] + sequence + [UInt8(ascii: "\"")]
        #expect(throws: JSONParseError.self) { try JSONParser().parse(bytes) }
    }

    @Test("nesting beyond the limit fails cleanly instead of overflowing the stack")
    func deepNesting() {
        let bytes = [UInt8](repeating: UInt8(ascii: "["), count: 100_000)
        #expect {
            try JSONParser().parse(bytes)
        } throws: { error in
            (error as? JSONParseError)?.message.contains("nesting deeper than 512") == true
        }
        let allowed = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(throws: Never.self) { try JSONParser().parse(Array(allowed.utf8)) }
    }

    @Test("a 10 MB string parses in one piece")
    func hugeString() throws {
        let content = String(repeating: "abcdefghé", count: 1_000_000)
        let value = try JSONParser().parse(Array("[\"\(content)\"]".utf8))
        #expect(value == .array([.string(content)]))
    }

    @Test("trailing commas are accepted only when asked for")
    func trailingCommas() throws {
        let parser = JSONParser(allowsTrailingCommas: true)
        #expect(
            try parser.parse(Array(#"{"a":[1,],}"#.utf8))
                == .object([JSONMember(key: "a", value: .array([.number("1")]))]))
    }
}
