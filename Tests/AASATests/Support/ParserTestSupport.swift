import AASA

/// Small helpers shared by the parser, lint, canonical-form and diff suites.
enum ParserTestSupport {
    /// The package root: three levels above this file (`Tests/AASATests/Support/…`, so four here).
    static let packageRoot: String = {
        var components = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        components.removeLast(4)
        return components.joined(separator: "/")
    }()

    /// `../shared/corpus` beside the package (the CI clone has it there too).
    static let corpusDirectory = packageRoot + "/../shared/corpus"

    /// Every finding (parser and lint) for a document given as text.
    static func lint(_ text: String) -> [Finding] {
        AASALint.lint(Array(text.utf8)).findings
    }

    /// `code@path` for each finding, the compact form the tables compare.
    static func codes(_ text: String) -> [String] {
        lint(text).map { "\($0.code)@\($0.path ?? "-")" }
    }

    /// The document of a text that must parse.
    static func document(_ text: String) -> AASADocument? {
        AASAParser.parse(Array(text.utf8)).document
    }
}
