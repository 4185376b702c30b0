import AASA
import AppClaims
import ArgumentParser
import Foundation
import MonitorCore

/// `aasa-monitor explain CODE`: what a finding code means, why Apple cares, how to fix it, with an example.
///
/// Everything printed comes from the `FindingCode` registry, the same table the chat "What to do" line reads, and
/// from the app reader's `ClaimCodeExplanation` table (`app.*`, what `app`, `check --app` and `apps:` report); the
/// discussion below lists every code so the generated man page carries the full reference.
struct ExplainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Explain a finding code: what it means, why Apple cares, how to fix it.",
        discussion: """
            Prints the code's usual severity and meaning, why Apple's CDN or the devices care, how to fix it and \
            an example. `--list` prints every code with its severity. Exit codes: 0 explained or listed; 2 usage \
            error or an unknown code (naming the nearest known one).

            Every finding code (`origin.*`: how the origin answered; `aasa.*`: the document's content; `cdn.*`: \
            Apple's copy; `expect.*`: your expectations; `app.*`: what an app's entitlements claim, from app, \
            check --app and apps:):


            """ + ExplainedCode.all.map { "\($0.id) (\($0.severityText)): \($0.meaning)" }.joined(separator: "\n\n")
    )

    @Argument(help: "The finding code, e.g. origin.bot_blocked.", completion: .list(ExplainedCode.all.map(\.id)))
    var code: String?

    @Flag(name: .long, help: "List every finding code with its severity.")
    var list = false

    func validate() throws {
        if list, code != nil { throw ValidationError("Give either a code or --list, not both.") }
        if !list, code == nil { throw ValidationError("Name a finding code (e.g. origin.bot_blocked), or use --list.") }
    }

    func run() throws {
        guard let code else {
            printForTerminal(ExplainedCode.listing)
            return
        }
        if let registered = FindingCode(id: code) {
            printForTerminal(registered.explanation)
        } else if let app = ClaimCodeExplanation(id: code) {
            printForTerminal(ExplainedCode(app).explanation)
        } else {
            let nearest = FindingCode.nearestID(to: code, among: ExplainedCode.all.map(\.id)) ?? ""
            // A code is at most a few dozen characters: more of the argument would only push the advice off the line.
            let shown = code.count > 80 ? code.prefix(80) + "…" : code[...]
            throw CommandFailure.usage(
                "'\(shown)' is not a finding code; the nearest is \(nearest) "
                    + "(`aasa-monitor explain --list` lists every code)")
        }
    }
}

/// A code `explain` knows: a monitor finding code, or an app reader's `app.*` code, in the same words.
struct ExplainedCode {
    var id: String
    var severityText: String
    var meaning: String
    var whyAppleCares: String
    var fix: String
    var example: String

    init(_ code: FindingCode) {
        self.init(
            id: code.id, severityText: code.severityText, meaning: code.meaning, whyAppleCares: code.whyAppleCares,
            fix: code.fix, example: code.example)
    }

    init(_ code: ClaimCodeExplanation) {
        self.init(
            id: code.code.rawValue, severityText: code.severity.rawValue, meaning: code.meaning,
            whyAppleCares: code.whyAppleCares, fix: code.fix, example: code.example)
    }

    private init(
        id: String, severityText: String, meaning: String, whyAppleCares: String, fix: String, example: String
    ) {
        self.id = id
        self.severityText = severityText
        self.meaning = meaning
        self.whyAppleCares = whyAppleCares
        self.fix = fix
        self.example = example
    }

    /// Every code, the monitor's by family and then the app reader's: what `--list` and completion offer.
    static let all = FindingCode.all.map(ExplainedCode.init) + ClaimCodeExplanation.all.map(ExplainedCode.init)

    /// What `explain CODE` prints for an `app.*` code, in the words of `FindingCode.explanation`.
    var explanation: String {
        """
        \(id) (\(severityText))
        \(meaning)

        Why Apple cares: \(whyAppleCares)
        How to fix: \(fix)
        Example: \(example)
        """
    }

    /// Every code as `explain --list` prints it: id and severity in columns, then the meaning.
    static var listing: String {
        let width = all.map(\.id.count).max() ?? 0
        return all.map { code in
            code.id.padding(toLength: width, withPad: " ", startingAt: 0) + "  "
                + code.severityText.padding(toLength: 16, withPad: " ", startingAt: 0) + "  " + code.meaning
        }.joined(separator: "\n")
    }
}
