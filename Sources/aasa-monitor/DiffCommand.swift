import AASA
import ArgumentParser

/// `aasa-monitor diff A B`: do these two files mean the same thing to Apple, and if not, what changed?
struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Compare two apple-app-site-association files by meaning.",
        discussion: """
            Whitespace, key order and number spelling do not count (Apple's CDN re-serializes files); array \
            order does. Prints each change by service, app and rule index, and whether it can change behaviour. \
            Exit codes: 0 the same meaning; 1 a different meaning; 2 usage error or a file that cannot be read or \
            parsed.
            """
    )

    @Argument(help: "The first (older) file.", completion: .file())
    var fileA: String

    @Argument(help: "The second (newer) file.", completion: .file())
    var fileB: String

    @Flag(name: .long, help: "Print one JSON document on standard output.")
    var json = false

    func run() throws {
        let (documentA, _) = try DocumentFile.document(fileA)
        let (documentB, _) = try DocumentFile.document(fileB)
        let diff = AASADiff.compare(documentA, documentB)
        if json {
            try JSONOutput.print(diff)
        } else if diff.sameMeaning {
            printForTerminal("same meaning (\(diff.hashA))")
        } else {
            printForTerminal("different meaning: \(diff.hashA) → \(diff.hashB)")
            for change in diff.changes {
                let marker = change.affectsBehavior ? "" : " [no behaviour change]"
                printForTerminal("\(change.kind.rawValue) \(change.path): \(change.summary)\(marker)")
            }
        }
        if !diff.sameMeaning { throw CommandFailure.negative }
    }
}
