import Foundation

/// Each command page's EXIT STATUS, from the command's own `Exit codes:` sentence.
///
/// argument-parser's `generate-manual` ends every page with mdoc's `.Ex -std` ("exits 0 on success, and >0 if an
/// error occurs"), which contradicts commands whose 1 is an answer (`diff`: a different meaning) and says nothing
/// of `check`'s 3 and 4. Each command's discussion states its codes in one sentence, `Exit codes: 0 …; 1 …; 2 ….`,
/// read here from the binary's `--experimental-dump-help`, so `--help` and the page cannot disagree.
extension ManualPages {
    /// One exit code and what it means.
    struct ExitCode: Equatable {
        var code: Int
        var meaning: String
    }

    /// The codes of the first `Exit codes: N meaning; N meaning.` sentence in `discussion`; empty without one.
    static func exitCodes(inDiscussion discussion: String) -> [ExitCode] {
        guard let start = discussion.range(of: "Exit codes: ")?.upperBound else { return [] }
        var sentence = discussion[start...]
        // The sentence ends at a full stop followed by a space or the end; "(a full disk: it is incomplete)." too.
        var index = sentence.startIndex
        while index < sentence.endIndex {
            let next = sentence.index(after: index)
            if sentence[index] == ".", next == sentence.endIndex || sentence[next].isWhitespace {
                sentence = sentence[..<index]
                break
            }
            index = next
        }
        return sentence.components(separatedBy: "; ").compactMap { item in
            let digits = item.prefix { $0.isNumber }
            guard let code = Int(digits) else { return nil }
            let meaning = item.dropFirst(digits.count).trimmingCharacters(in: .whitespaces)
            return ExitCode(code: code, meaning: meaning)
        }
    }

    /// Every command of the binary by its page's name (`aasa-monitor.config.check`), with its exit codes and
    /// whether it only groups subcommands.
    static func commands(dumpHelp json: Data) throws -> [String: (codes: [ExitCode], isGroup: Bool)] {
        guard let root = try JSONSerialization.jsonObject(with: json) as? [String: Any],
            let command = root["command"] as? [String: Any]
        else { throw BuildDebError("`aasa-monitor --experimental-dump-help` printed no command") }
        var commands: [String: (codes: [ExitCode], isGroup: Bool)] = [:]
        func walk(_ command: [String: Any], prefix: String) {
            let name = prefix.isEmpty ? "\(command["commandName"] ?? "")" : "\(prefix).\(command["commandName"] ?? "")"
            let subcommands = command["subcommands"] as? [[String: Any]] ?? []
            commands[name] = (exitCodes(inDiscussion: command["discussion"] as? String ?? ""), !subcommands.isEmpty)
            for subcommand in subcommands { walk(subcommand, prefix: name) }
        }
        walk(command, prefix: "")
        return commands
    }

    /// `page` (mdoc) with its EXIT STATUS section's body replaced by `codes` as a tag list.
    static func replacingExitStatus(in page: String, with body: [String]) throws -> String {
        var lines = page.components(separatedBy: "\n")
        guard let header = lines.firstIndex(where: { $0.hasPrefix(".Sh") && $0.contains("EXIT STATUS") }) else {
            throw BuildDebError("a generated man page has no EXIT STATUS section to replace")
        }
        let end = lines[(header + 1)...].firstIndex { $0.hasPrefix(".Sh") } ?? lines.endIndex
        lines.replaceSubrange((header + 1)..<end, with: body)
        return lines.joined(separator: "\n")
    }

    /// The mdoc lines of an EXIT STATUS section: the codes as a tag list, or for a command that only groups
    /// subcommands, that it exits as the subcommand it runs.
    static func exitStatusBody(_ codes: [ExitCode], isGroup: Bool, page: String) throws -> [String] {
        if codes.isEmpty {
            guard isGroup || page.hasSuffix(".help") else {
                throw BuildDebError(
                    "\(page) states no exit codes: end its discussion with `Exit codes: 0 …; 1 …; 2 ….`, the"
                        + " sentence its man page's EXIT STATUS is made from")
            }
            return [isGroup ? "Exits as the subcommand it runs; 2 for a usage error." : "0; 2 for a usage error."]
        }
        var body = [".Bl -tag -width 4n"]
        for code in codes {
            body += [".It \(code.code)", escaped(code.meaning)]
        }
        return body + [".El"]
    }

    /// `text` as one mdoc text line: backslashes escaped, and no leading `.` or `'` read as a request.
    static func escaped(_ text: String) -> String {
        let line = text.replacingOccurrences(of: "\\", with: "\\e")
        return line.hasPrefix(".") || line.hasPrefix("'") ? "\\&" + line : line
    }
}
