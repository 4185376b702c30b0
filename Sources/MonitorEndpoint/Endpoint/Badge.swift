import MonitorCore
import MonitorStore

/// A badge in the shields.io "flat" style, "universal links | ready", for a README or a wiki to embed.
///
/// Plain SVG with no script or external reference; every text is escaped, and widths come from Verdana's
/// advance widths at 11 px (as shields.io measures), so the words fit without a font of ours.
struct Badge: Sendable, Hashable {
    var label: String
    var message: String
    /// The message's background, `#rrggbb`.
    var color: String
    /// The tooltip and accessible name.
    var title: String

    static let label = "universal links"

    /// The badge of a configured domain: its verdict's word and colour, or "not checked" before its first check.
    static func domain(_ name: String, verdict: ListedVerdict) -> Badge {
        let (word, color) = appearance(verdict)
        return Badge(label: label, message: word, color: color, title: "\(label) of \(name): \(word)")
    }

    /// The badge of a domain the monitor does not watch (answered with 404).
    static let notMonitored = Badge(
        label: label, message: "not monitored", color: "#9f9f9f", title: "\(label): not monitored")

    /// Each verdict's word and colour: green when links work, red when the origin breaks them, orange when Apple
    /// serves no copy or the apps' expectations fail, yellow for a stale copy, grey when unknown.
    static func appearance(_ verdict: ListedVerdict) -> (word: String, color: String) {
        switch verdict {
        case .ready: ("ready", "#4c1")
        case .originBroken: ("origin broken", "#e05d44")
        case .expectationFailed: ("expectation failed", "#fe7d37")
        case .cdnMissing: ("cdn missing", "#fe7d37")
        case .cdnStale: ("cdn stale", "#dfb317")
        case .unknown: ("unknown", "#9f9f9f")
        case .notChecked: ("not checked", "#9f9f9f")
        }
    }

    /// The SVG document.
    var svg: String {
        let labelWidth = Self.textWidth(label) + 10
        let messageWidth = Self.textWidth(message) + 10
        let width = labelWidth + messageWidth
        let title = Self.escaped(title)
        let label = Self.escaped(label)
        let message = Self.escaped(message)
        let labelX = labelWidth * 5
        let messageX = labelWidth * 10 + messageWidth * 5
        return """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="20" role="img" aria-label="\(title)">\
            <title>\(title)</title>\
            <linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/>\
            <stop offset="1" stop-opacity=".1"/></linearGradient>\
            <clipPath id="r"><rect width="\(width)" height="20" rx="3" fill="#fff"/></clipPath>\
            <g clip-path="url(#r)"><rect width="\(labelWidth)" height="20" fill="#555"/>\
            <rect x="\(labelWidth)" width="\(messageWidth)" height="20" fill="\(color)"/>\
            <rect width="\(width)" height="20" fill="url(#s)"/></g>\
            <g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" \
            text-rendering="geometricPrecision" font-size="110">\
            <text x="\(labelX)" y="150" fill="#010101" fill-opacity=".3" transform="scale(.1)">\(label)</text>\
            <text x="\(labelX)" y="140" transform="scale(.1)">\(label)</text>\
            <text x="\(messageX)" y="150" fill="#010101" fill-opacity=".3" transform="scale(.1)">\(message)</text>\
            <text x="\(messageX)" y="140" transform="scale(.1)">\(message)</text></g></svg>

            """
    }

    /// The width in pixels of `text` in Verdana 11 px, rounded up; letters outside ASCII count as wide ones.
    static func textWidth(_ text: String) -> Int {
        let tenths = text.unicodeScalars.reduce(0) { sum, scalar in
            sum + (scalar.isASCII ? Self.verdanaTenths[Int(scalar.value)] : 75)
        }
        return (tenths + 9) / 10
    }

    /// Verdana's advance widths at 11 px, in tenths of a pixel, for ASCII (control characters: 0).
    private static let verdanaTenths: [Int] = {
        var widths = [Int](repeating: 0, count: 128)
        let table: [(String, Int)] = [
            (" ", 39), ("!", 43), ("\"", 50), ("#", 90), ("$", 70), ("%", 119), ("&", 80), ("'", 30), ("()", 50),
            ("*", 70), ("+", 90), (",", 40), ("-", 50), (".", 40), ("/", 50), ("0123456789", 70), (":;", 50),
            ("<=>", 90), ("?", 60), ("@", 110), ("ABCDEFGHKNOPRSTUVXYZ", 75), ("IJ", 46), ("LM", 70), ("QW", 100),
            ("[\\]", 50), ("^", 90), ("_", 70), ("`", 70), ("abcdeghnopqsuvxyz", 66), ("fijlrt", 38), ("k", 62),
            ("m", 106), ("w", 90), ("{|}", 60), ("~", 90),
        ]
        for (characters, width) in table {
            for scalar in characters.unicodeScalars { widths[Int(scalar.value)] = width }
        }
        return widths
    }()

    /// `text` safe inside an XML element or a double-quoted attribute.
    static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            default:
                // XML 1.0 has no way to write most control characters, not even escaped.
                if character.unicodeScalars.allSatisfy({ $0.value >= 0x20 || $0 == "\t" || $0 == "\n" }) {
                    result.append(character)
                }
            }
        }
        return result
    }
}
