import AASA
import ArgumentParser

/// `aasa-monitor lint FILE`: what Apple will make of this file, and what to change.
struct LintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Check an apple-app-site-association file and say what to change.",
        discussion: """
            Prints one line per finding: severity, code, JSON path and what to change. The body checks of the \
            probe apply too (origin.json, origin.bom, origin.too_large, origin.signed). Exit codes: 0 no error \
            finding; 1 an error finding; 2 usage error or unreadable file.
            """
    )

    @Argument(help: "The apple-app-site-association file.", completion: .file())
    var file: String

    @Flag(name: .long, help: "Print one JSON document on standard output.")
    var json = false

    func run() throws {
        let result = AASALint.lint(try DocumentFile.read(file))
        if json {
            try JSONOutput.print(LintReport(file: file, findings: result.findings))
        } else if result.findings.isEmpty {
            printForTerminal("\(file): no findings")
        } else {
            for finding in result.findings {
                let path = finding.path ?? file
                printForTerminal("\(finding.severity.rawValue) \(finding.code) \(path): \(finding.message)")
            }
        }
        if result.findings.contains(where: { $0.severity == .error }) {
            throw CommandFailure.negative
        }
    }
}

/// The `lint --json` document: the file and every finding, each finding with the same keys every time.
struct LintReport: Encodable {
    var file: String
    var findings: [Finding]
}
