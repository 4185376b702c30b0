import AASA
import Foundation
import Testing

@Suite("Hostile and legacy bodies")
struct HostileInputTests {
    /// One hostile body; named in the test output by its name, not by 100,000 bytes (issue 23 item 19).
    struct Body: Sendable, CustomTestStringConvertible {
        var name: String
        var bytes: [UInt8]
        /// The finding code it must give; empty for none.
        var expectedCode: String
        var testDescription: String { "\(name) (\(bytes.count) bytes)" }

        init(_ name: String, _ bytes: [UInt8], _ expectedCode: String) {
            self.name = name
            self.bytes = bytes
            self.expectedCode = expectedCode
        }
    }

    static let hostile: [Body] = [
        Body("100k nested arrays", [UInt8](repeating: UInt8(ascii: "["), count: 100_000), "origin.json"),
        Body("100k nested objects", Array(String(repeating: #"{"a":"#, count: 100_000).utf8), "origin.json"),
        Body("invalid UTF-8", Array(#"{"applinks":""#.utf8) + [0xFF, 0xFE] + Array(#""}"#.utf8), "origin.json"),
        Body("a BOM", [0xEF, 0xBB, 0xBF] + Array(#"{"webcredentials":{"apps":[]}}"#.utf8), "origin.bom"),
        Body("a BOM alone", [0xEF, 0xBB, 0xBF], "origin.json"),
        Body("trailing garbage", Array(#"{"webcredentials":{"apps":[]}}</html>"#.utf8), "origin.json"),
        Body("a lone surrogate", Array(#"{"webcredentials":{"apps":["\ud800"]}}"#.utf8), "origin.json"),
        Body("a raw NUL", Array(#"{"webcredentials":{"apps":[""#.utf8) + [0] + Array(#""]}}"#.utf8), "origin.json"),
        Body("a NUL outside strings", [0], "origin.json"),
        Body("empty input", [], "origin.json"),
        Body("only whitespace", Array("\n\n  \n".utf8), "origin.json"),
        Body("an HTML page", Array("<!DOCTYPE html><html><body>Not found</body></html>".utf8), "origin.json"),
        Body("a truncated DER envelope", [0x30, 0x82, 0x05, 0x00, 0x06], "origin.json"),
        Body("a DER sequence that is not CMS", [0x30, 0x03, 0x02, 0x01, 0x01], "origin.json"),
        Body("a huge exponent", Array(#"{"webcredentials":{"apps":[]},"n":1e999999999999999999999}"#.utf8), ""),
    ]

    @Test("each hostile body gives its finding and no crash", arguments: hostile)
    func hostileBody(_ body: Body) {
        let result = AASALint.lint(body.bytes)
        if body.expectedCode.isEmpty {
            #expect(result.findings.isEmpty, "\(body.name)")
        } else {
            #expect(result.findings.map(\.code).contains(body.expectedCode), "\(body.name)")
        }
        _ = result.canonicalHash
    }

    @Test("a 10 MB string is parsed, hashed and reported as too large")
    func tenMegabyteString() throws {
        let body =
            Array(#"{"webcredentials":{"apps":[]},"x":""#.utf8)
            + [UInt8](repeating: UInt8(ascii: "a"), count: 10_000_000) + Array(#""}"#.utf8)
        let result = AASALint.lint(body)
        #expect(result.findings.map(\.code) == ["origin.too_large"])
        #expect(result.canonicalHash?.hasPrefix("sha256:") == true)
    }

    @Test("a body just under the limit is fine and one byte over is too large")
    func sizeLimit() {
        let prefix = Array(#"{"webcredentials":{"apps":[]},"x":""#.utf8)
        let filler = AASAParser.maximumBodySize - prefix.count - 2
        let atLimit = prefix + [UInt8](repeating: UInt8(ascii: "a"), count: filler) + Array(#""}"#.utf8)
        #expect(AASAParser.parse(atLimit).findings.isEmpty)
        let overLimit = prefix + [UInt8](repeating: UInt8(ascii: "a"), count: filler + 1) + Array(#""}"#.utf8)
        #expect(AASAParser.parse(overLimit).findings.map(\.code) == ["origin.too_large"])
    }

    @Test("a 128 KB file of 40 000 details entries is linted in linear time", .timeLimit(.minutes(1)))
    func manyEntries() {
        let body =
            Array(#"{"applinks":{"details":["#.utf8)
            + Array(
                Array(repeating: "{}", count: 40_000)
                    .joined(separator: ",").utf8) + Array("]}}".utf8)
        let findings = AASALint.lint(body).findings
        #expect(findings.filter { $0.code == "aasa.no_rules" }.count == 40_000)
    }

    @Test("a 128 KB file of 8 500 distinct components is linted in linear time", .timeLimit(.minutes(1)))
    func manyComponents() {
        let components = (0..<8_500).map { #"{"/":"/a\#($0)"}"# }.joined(separator: ",")
        let text =
            #"{"applinks":{"details":[{"appIDs":["A1B2C3D4E5.com.example.app"],"components":["#
            + components + "]}]}}"
        #expect(AASALint.lint(Array(text.utf8)).findings.isEmpty)
    }

    @Test(
        "thousands of undefined variables next to thousands of defined ones are linted quickly, hints for the first",
        .timeLimit(.minutes(1)))
    func manyUndefinedVariables() throws {
        let variables = (0..<2_000).map { #""v\#(String(1000 + $0))":["a"]"# }.joined(separator: ",")
        let components = (0..<4_000).map { #"{"/":"/$(x\#(String(1000 + $0)))"}"# }.joined(separator: ",")
        let text =
            #"{"applinks":{"substitutionVariables":{"# + variables
            + #"},"details":[{"appIDs":["A1B2C3D4E5.com.example.app"],"components":["# + components + "]}]}}"
        let findings = AASALint.lint(Array(text.utf8)).findings.filter { $0.code == "aasa.undefined_variable" }
        #expect(findings.count == 4_000)
        #expect(findings.first?.message.hasSuffix("or write $(v1000)") == true)
        #expect(findings.last?.message.hasSuffix("define it") == true)
    }

    @Test("JSON errors carry line, column and the bytes around them")
    func errorPosition() throws {
        let result = AASAParser.parse(Array("{\n  \"a\": 1\n  \"b\": 2\n}".utf8))
        let error = try #require(result.jsonError)
        #expect((error.line, error.column, error.offset) == (3, 3, 13))
        #expect(result.findings.first?.message.contains("line 3, column 3") == true)
    }

    /// A signed fixture, named in the test output by its encoding rather than a kilobyte of base64.
    struct Envelope: Sendable, CustomTestStringConvertible {
        var encoding: String
        var base64: String
        var testDescription: String { "\(encoding) envelope" }

        init(_ encoding: String, _ base64: String) {
            self.encoding = encoding
            self.base64 = base64
        }
    }

    @Test(
        "signed envelopes are unwrapped without verifying the signature",
        arguments: [Envelope("DER", SignedFixtures.derBase64), Envelope("BER", SignedFixtures.berBase64)])
    func signedEnvelope(_ envelope: Envelope) throws {
        let bytes = try #require(Data(base64Encoded: envelope.base64))
        let result = AASALint.lint(bytes)
        #expect(result.isSigned)
        // The fixture carries Apple's example app ID, which is rightly reported as a placeholder.
        #expect(result.findings.map(\.code) == ["origin.signed", "aasa.appid_placeholder"])
        #expect(result.findings.first?.severity == .info)
        let document = try #require(result.document)
        #expect(document.applinks?.details.first?.appIDs == ["ABCDE12345.com.example.app"])
        let plain = try #require(AASAParser.parse(Array(SignedFixtures.json.utf8)).document)
        #expect(CanonicalJSON.hash(of: document.json) == CanonicalJSON.hash(of: plain.json))
    }

    @Test("a signed envelope with its content cut off is invalid, not a crash")
    func truncatedEnvelope() throws {
        let bytes = try #require(Data(base64Encoded: SignedFixtures.derBase64))
        for length in stride(from: 1, to: bytes.count, by: 7) {
            let result = AASAParser.parse(bytes.prefix(length))
            #expect(result.findings.contains { $0.severity == .error }, "\(length) bytes")
        }
    }
}
