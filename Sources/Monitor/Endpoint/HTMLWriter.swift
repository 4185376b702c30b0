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

    /// A value as text or inside a quoted attribute: escaped, control characters shown as `\x1b`, cut when long.
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
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
    }
}
