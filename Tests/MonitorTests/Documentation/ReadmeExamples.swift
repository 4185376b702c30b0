import Foundation

/// The shell examples of README.md, read by the convention its *Development* section states:
///
/// - A ` ```console ` block is run. Each line starting with `$ ` is a command (a line ending in `\` continues on the
///   next); the lines after it are what it prints, and `# exit N` says how it ends (no annotation: 0).
/// - A ` ```sh ` (or `bash`, `shell`) block is not run, and its first line says why: `# needs: root`. The
///   reason is required, so a block is skipped by rule (root, systemd, the network, a running daemon), never because
///   nobody looked.
/// - A ` ```yaml config ` block is a whole configuration file, and `config check` must accept it (the word after
///   the language is ignored by Markdown renderers).
/// - Any other fence (`yaml`, `json`, `promql`, …) is not shell; a fence without a language is refused.
struct ReadmeExamples {
    /// One fenced block: its language (the info string's first word), the words after it, its lines, and the
    /// README line of its opening fence.
    struct Block {
        var language: String
        var tags: [String]
        var line: Int
        var lines: [String]

        init(info: Substring, line: Int) {
            let words = info.split(separator: " ").map(String.init)
            self.language = words.first ?? ""
            self.tags = Array(words.dropFirst())
            self.line = line
            self.lines = []
        }
    }

    /// One `$ ` command of a `console` block, with the output and exit status the README shows.
    struct Example: CustomStringConvertible {
        var line: Int
        var command: String
        var shownOutput: [String]
        var exitStatus: Int32

        var description: String { "README.md:\(line): \(command)" }
    }

    static let shellLanguages: Set = ["sh", "bash", "shell"]
    static let skipMarker = "# needs: "

    let text: String
    let blocks: [Block]

    init(text: String) {
        self.text = text
        var blocks: [Block] = []
        var open: Block?
        for (index, line) in text.components(separatedBy: "\n").enumerated() {
            if line.hasPrefix("```") {
                if let block = open {
                    blocks.append(block)
                    open = nil
                } else {
                    open = Block(info: line.dropFirst(3), line: index + 1)
                }
            } else {
                open?.lines.append(line)
            }
        }
        self.blocks = blocks
    }

    /// Problems with the convention itself: unlabelled fences, shell blocks without a reason, output before a command.
    var conventionProblems: [String] {
        var problems: [String] = []
        for block in blocks {
            if block.language.isEmpty {
                problems.append("README.md:\(block.line): a fence without a language; say console, sh, yaml, json …")
            }
            if Self.shellLanguages.contains(block.language), !(block.lines.first ?? "").hasPrefix(Self.skipMarker) {
                problems.append(
                    "README.md:\(block.line): a \(block.language) block is not run, so its first line must say why "
                        + "(\(Self.skipMarker)root); use console with `$ ` prompts for commands that run offline")
            }
            if block.language == "console", let first = block.lines.first, !first.hasPrefix("$ ") {
                problems.append("README.md:\(block.line): a console block must start with a `$ ` command")
            }
        }
        return problems
    }

    /// The `yaml config` blocks: configuration files `config check` must accept.
    var configurations: [Block] {
        blocks.filter { $0.language == "yaml" && $0.tags.contains("config") }
    }

    /// Every command of every `console` block, in README order.
    var examples: [Example] {
        var examples: [Example] = []
        for block in blocks where block.language == "console" {
            var continuing = false
            for (offset, line) in block.lines.enumerated() {
                if continuing, var last = examples.popLast() {
                    last.command += "\n" + line
                    examples.append(last)
                    continuing = line.hasSuffix("\\")
                } else if line.hasPrefix("$ ") {
                    examples.append(
                        Example(
                            line: block.line + 1 + offset, command: String(line.dropFirst(2)), shownOutput: [],
                            exitStatus: 0))
                    continuing = line.hasSuffix("\\")
                } else if line.hasPrefix("# exit "), let status = Int32(line.dropFirst(7)),
                    var last = examples.popLast()
                {
                    last.exitStatus = status
                    examples.append(last)
                } else if !line.isEmpty, line != "…", var last = examples.popLast() {
                    last.shownOutput.append(line)
                    examples.append(last)
                }
            }
        }
        return examples
    }

    /// `line` with every run of digits replaced by `0`: times, durations and ports vary from run to run.
    static func withoutDigits(_ line: String) -> String {
        var result = ""
        var inDigits = false
        for character in line {
            if character.isASCII, character.isNumber {
                if !inDigits { result.append("0") }
                inDigits = true
            } else {
                result.append(character)
                inDigits = false
            }
        }
        return result
    }
}
