import AASA
import Foundation
import Testing

/// The 60 real files of the vendored corpus (`Resources/corpus`, with its README and provenance): everything parses
/// or fails cleanly, and the interesting files get exactly the findings their mistakes deserve (an unreplaced
/// placeholder team ID, a numeric prefix, `paths` beside `components`, empty `appIDs`, invalid JSON).
@Suite("Real-world corpus")
struct CorpusTests {
    static let files: [String] = (1...60).map { String(format: "%03d", $0) }

    /// Findings of this linter (the matcher's own codes are tested by the matcher's suites and left out here).
    static let expected: [String: [String]] = [
        "018": ["aasa.mixed_formats@$.applinks.details[0]"],
        "021": ["aasa.appid_numeric_prefix@$.applinks.details[0].appIDs[0]"],
        "023": ["aasa.mixed_formats@$.applinks.details[0]"],
        "035": [
            "aasa.appid_placeholder@$.applinks.details[0].appIDs[0]", "aasa.appid_placeholder@$.webcredentials.apps[0]",
        ],
        "040": ["origin.json@-"],
        "041": ["aasa.mixed_formats@$.applinks.details[0]"],
        "047": ["aasa.empty_app_ids@$.applinks.details[0]"],
        "054": ["origin.json@-", "aasa.mixed_formats@$.applinks.details[0]"],
        "059": ["origin.json@-", "aasa.appid_numeric_prefix@$.applinks.details[0].appIDs[0]"],
    ]

    static func bytes(_ name: String) throws -> [UInt8] {
        let url = URL(fileURLWithPath: ParserTestSupport.corpusDirectory + "/\(name).json")
        return Array(try Data(contentsOf: url))
    }

    @Test("each corpus file gets exactly its expected findings", arguments: files)
    func findings(name: String) throws {
        let result = AASALint.lint(try Self.bytes(name))
        let codes = result.findings
            .filter { !["aasa.unreachable_rule", "aasa.exclude_matches_all"].contains($0.code) }
            .map { "\($0.code)@\($0.path ?? "-")" }
        #expect(codes == Self.expected[name, default: []])
    }

    @Test("the invalid files fail where the mistake is", arguments: [("040", 7, 5), ("054", 16, 9), ("059", 11, 14)])
    func invalidPositions(name: String, line: Int, column: Int) throws {
        let error = try #require(AASAParser.parse(try Self.bytes(name)).jsonError)
        #expect((error.line, error.column) == (line, column))
    }

    @Test("every valid corpus file is its own canonical fixed point and diffs empty against itself", arguments: files)
    func canonical(name: String) throws {
        guard let document = AASAParser.parse(try Self.bytes(name)).document else { return }
        let canonical = CanonicalJSON.bytes(of: document.json)
        let reparsed = try #require(AASAParser.parse(canonical).document)
        #expect(CanonicalJSON.bytes(of: reparsed.json) == canonical)
        #expect(AASADiff.compare(document, reparsed).changes.isEmpty)
        #expect(AASADiff.compare(document, document).sameMeaning)
    }

    @Test("leading blank lines (022) are plain JSON whitespace")
    func leadingBlankLines() throws {
        let result = AASAParser.parse(try Self.bytes("022"))
        #expect(result.findings.isEmpty)
        #expect(result.document?.activitycontinuation?.apps.count == 2)
    }

    @Test("different corpus files never share a hash")
    func distinctHashes() throws {
        var seen: [String: String] = [:]
        for name in Self.files {
            guard let hash = AASAParser.parse(try Self.bytes(name)).canonicalHash else { continue }
            #expect(seen[hash] == nil, "\(name) has the same hash as \(seen[hash] ?? "")")
            seen[hash] = name
        }
    }
}
