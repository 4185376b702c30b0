/// Builds an HTML document in which every value is escaped.
///
/// Markup can only be written as a `StaticString` (a literal in our source); anything computed, and above all
/// anything from the store (finding messages and file contents a hostile origin controls), goes through `text`,
/// which escapes it. So a value cannot become markup by mistake: there is no call that takes a `String` as HTML.
struct HTMLWriter {
    /// Longer values are cut: a 50 KB reason would bury the page (the store keeps the whole text).
    static let maximumValueLength = 2_000

    private(set) var html = ""

    init(capacity: Int = 16_384) {
        html.reserveCapacity(capacity)
    }

    /// Markup written in our source: tags, attribute names, static text.
    mutating func raw(_ markup: StaticString) {
        markup.withUTF8Buffer { html += String(decoding: $0, as: UTF8.self) }
    }

    /// A value as text or inside a quoted attribute: escaped, control characters shown as `\x1b` and bidirectional
    /// controls as `\u202e`, cut when long.
    mutating func text(_ value: String) {
        HTMLWriter.escape(value, into: &html)
    }

    /// A number as text.
    mutating func text(_ value: Int) {
        html += String(value)
    }

    /// `value` escaped for HTML text and for quoted attribute values (`&`, `<`, `>`, `"`, `'`).
    static func escape(_ value: String) -> String {
        var out = ""
        escape(value, into: &out)
        return out
    }

    /// The controls that reorder displayed text: U+061C, U+200E–U+200F, U+202A–U+202E, U+2066–U+2069.
    static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    static func escape(_ value: String, into out: inout String) {
        var count = 0
        for scalar in value.unicodeScalars {
            count += 1
            if count > maximumValueLength {
                out += "… (\(value.utf8.count) bytes)"
                return
            }
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\n", "\t": out.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\x" + (hex.count < 2 ? "0" + hex : hex)
                } else if isBidiControl(scalar) {
                    // Shown, not obeyed: U+202E would display the rest of a hostile value reversed (issue 26 §4).
                    out += "\\u" + String(scalar.value, radix: 16)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
    }
}
