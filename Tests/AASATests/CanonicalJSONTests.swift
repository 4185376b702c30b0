import AASA
import TestSupport
import Testing

@Suite("Canonical form and hash")
struct CanonicalJSONTests {
    @Test(
        "numbers have one spelling per value",
        arguments: [
            ("1", "1"), ("1.0", "1"), ("1e0", "1"), ("10e-1", "1"), ("-0", "0"), ("0.000", "0"), ("-0.0e5", "0"),
            ("1500", "1500"), ("1.5e3", "1500"), ("0.5", "0.5"), ("5e-1", "0.5"), ("0.000001", "0.000001"),
            ("1e-7", "1e-7"), ("1e20", "100000000000000000000"), ("1e21", "1e+21"), ("123.456e1", "1234.56"),
            ("-12.50", "-12.5"), ("12345678901234567890123", "1.2345678901234567890123e+22"),
            ("1e999999999999999999999", "1e+1000000000000"),
        ])
    func numbers(literal: String, canonical: String) {
        #expect(CanonicalJSON.text(of: .number(literal)) == canonical)
    }

    @Test("keys sort by UTF-8 bytes, duplicates resolve to the last, and whitespace disappears")
    func objects() throws {
        let value = try JSONParser().parse(Array(#" { "b" : 1 , "a" : [ 2 , 1 ] , "é":0, "Z": null, "b": 3 } "#.utf8))
        #expect(CanonicalJSON.text(of: value) == #"{"Z":null,"a":[2,1],"b":3,"é":0}"#)
    }

    @Test("keys that differ only in Unicode normalization stay two keys, as in Foundation's dictionaries")
    func canonicallyEquivalentKeys() throws {
        // "\u00e9" (precomposed) and "e\u0301" (decomposed) are equal as Swift strings but distinct keys to Apple:
        // dropping one of them would give both documents below the same hash.
        let both = try JSONParser().parse(Array(#"{"\u00e9": 1, "e\u0301": 2}"#.utf8))
        let one = try JSONParser().parse(Array(#"{"e\u0301": 2}"#.utf8))
        #expect(CanonicalJSON.hash(of: both) != CanonicalJSON.hash(of: one))
        #expect(CanonicalJSON.bytes(of: both) == Array("{\"e\u{301}\":2,\"\u{e9}\":1}".utf8))
        #expect(ParserTestSupport.lint(#"{"webcredentials": {"apps": []}, "\u00e9": 1, "e\u0301": 2}"#).isEmpty)
        let variables = try #require(
            ParserTestSupport.document(
                #"{"applinks": {"details": [], "substitutionVariables": {"\u00e9": ["a"], "e\u0301": ["b"]}}}"#))
        #expect(variables.applinks?.substitutionVariables.count == 2)
    }

    @Test("strings escape only what JSON requires")
    func strings() {
        let value = JSONValue.string("a\"b\\c/\u{1}\n\t\u{8}\u{c}\r\u{7f}é😀\u{2028}")
        #expect(CanonicalJSON.text(of: value) == "\"a\\\"b\\\\c/\\u0001\\n\\t\\b\\f\\r\u{7f}é😀\u{2028}\"")
    }

    @Test("the hash is sha256 of the canonical text")
    func hash() {
        // printf '{}' | sha256sum
        #expect(
            CanonicalJSON.hash(of: .object([]))
                == "sha256:44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a")
    }

    @Test("array order matters")
    func arrayOrder() {
        #expect(
            CanonicalJSON.hash(of: .array([.number("1"), .number("2")]))
                != CanonicalJSON.hash(of: .array([.number("2"), .number("1")])))
    }

    @Test("re-spelled random documents keep their canonical form, hash and diff", arguments: 0..<200)
    func property(seed: Int) throws {
        var generator = SeededGenerator(seed: UInt64(seed))
        let value = RandomDocuments.value(using: &generator)
        let text = RandomDocuments.respell(value, using: &generator)
        let reparsed = try JSONParser().parse(Array(text.utf8))
        #expect(CanonicalJSON.text(of: reparsed) == CanonicalJSON.text(of: value), "seed \(seed): \(text)")
        #expect(CanonicalJSON.hash(of: reparsed) == CanonicalJSON.hash(of: value))
        // The canonical text is itself valid JSON and a fixed point.
        let canonical = try JSONParser().parse(CanonicalJSON.bytes(of: value))
        #expect(CanonicalJSON.bytes(of: canonical) == CanonicalJSON.bytes(of: value))
        let a = try #require(AASAParser.parse(Array(text.utf8)).document)
        let b = try #require(AASAParser.parse(CanonicalJSON.bytes(of: value)).document)
        let diff = AASADiff.compare(a, b)
        #expect(diff.sameMeaning && diff.changes.isEmpty, "seed \(seed)")
    }
}
