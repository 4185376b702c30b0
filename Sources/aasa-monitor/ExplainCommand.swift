import AASA
import ArgumentParser
import Foundation
import MonitorCore
import MonitorEvaluation

/// `aasa-monitor explain CODE`: what a finding code means, why Apple cares, how to fix it, with an example.
///
/// Everything printed comes from the `FindingCode` registry, the same table the chat "What to do" line reads; it
/// holds the app reader's `app.*` codes too (what `app`, `check --app` and `apps:` report). The discussion below
/// lists every code so the generated man page carries the full reference.
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


            """ + FindingCode.all.map { "\($0.id) (\($0.severityText)): \($0.meaning)" }.joined(separator: "\n\n")
    )

    @Argument(help: "The finding code, e.g. origin.bot_blocked.", completion: .list(FindingCode.all.map(\.id)))
    var code: String?

    @Flag(name: .long, help: "List every finding code with its severity.")
    var list = false

    func validate() throws {
        if list, code != nil { throw ValidationError("Give either a code or --list, not both.") }
        if !list, code == nil { throw ValidationError("Name a finding code (e.g. origin.bot_blocked), or use --list.") }
    }

    func run() throws {
        guard let code else {
            printForTerminal(FindingCode.listing)
            return
        }
        if let registered = FindingCode(id: code) {
            printForTerminal(registered.explanation)
        } else {
            let nearest = FindingCode.nearestID(to: code, among: FindingCode.all.map(\.id)) ?? ""
            // A code is at most a few dozen characters: more of the argument would only push the advice off the line.
            let shown = code.count > 80 ? code.prefix(80) + "…" : code[...]
            throw CommandFailure.usage(
                "'\(shown)' is not a finding code; the nearest is \(nearest) "
                    + "(`aasa-monitor explain --list` lists every code)")
        }
    }
}
