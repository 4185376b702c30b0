import MonitorCore
import MonitorEvaluation

/// Text output that is safe to put on a terminal: what origins, Apple's CDN and files say reaches the screen
/// inert. A `Location` or CDN reason holding `ESC [2J` would otherwise clear the screen or retitle the window, and
/// a 50 KB reason would bury the report. JSON output never goes through here: it is for programs, and
/// `MonitorJSON.inert` escapes what JSONEncoder leaves raw.
enum TerminalText {
    /// Lines longer than this many characters are cut.
    static let lineLimit = 1_000

    /// `text` with every control character except line feed and tab, and every bidi control, shown as `\x1b` (or
    /// `\u{85}` above `\x7f`), and each line longer than `lineLimit` cut with `…` and its full length. Every line
    /// the command-line tool prints for a person goes through here (`printForTerminal`, `printToStandardError`): its
    /// arguments, the configuration, the database and the API's writes all hold text from outside.
    static func safe(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map(safeLine).joined(separator: "\n")
    }

    private static func safeLine(_ line: Substring) -> String {
        var escaped = ""
        var count = 0
        var cut = false
        for scalar in line.unicodeScalars {
            let piece: String
            if scalar != "\t", scalar.properties.generalCategory == .control || scalar.isBidiControl {
                let hex = String(scalar.value, radix: 16)
                piece = scalar.value < 0x80 ? "\\x" + (hex.count == 1 ? "0" + hex : hex) : "\\u{\(hex)}"
            } else {
                piece = String(scalar)
            }
            count += 1
            if !cut {
                if count > lineLimit {
                    cut = true
                } else {
                    escaped += piece
                }
            }
        }
        return cut ? escaped + "… (cut: \(count) characters)" : escaped
    }
}

/// Prints text for a person through `TerminalText.safe`.
func printForTerminal(_ text: String, terminator: String = "\n") {
    print(TerminalText.safe(text), terminator: terminator)
}
