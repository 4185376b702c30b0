import AASA
import Foundation

/// Small helpers shared by the parser, lint, canonical-form and diff suites.
enum ParserTestSupport {
    /// The vendored real-world corpus (60 files with `INDEX.tsv`, `PROVENANCE.tsv` and a README), copied into the
    /// test bundle so the tests need nothing outside the repository.
    static let corpusDirectory: String = {
        guard let url = Bundle.module.url(forResource: "corpus", withExtension: nil) else {
            fatalError("the corpus is missing from the test bundle; check resources in Package.swift")
        }
        return url.path
    }()

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
