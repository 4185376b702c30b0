import AASA
import Foundation

extension FindingCode {
    /// What `aasa-monitor explain CODE` prints: the code and severity, its meaning, why Apple cares, how to fix it
    /// and an example, one labelled paragraph each.
    public var explanation: String {
        """
        \(id) (\(severityText))
        \(meaning)

        Why Apple cares: \(whyAppleCares)
        How to fix: \(fix)
        Example: \(example)
        """
    }

    /// One line of `explain --list`: id and severity in columns, then the meaning.
    public var listLine: String {
        let paddedID = id.padding(toLength: Self.idColumnWidth, withPad: " ", startingAt: 0)
        let paddedSeverity = severityText.padding(toLength: 16, withPad: " ", startingAt: 0)
        return "\(paddedID)  \(paddedSeverity)  \(meaning)"
    }

    private static let idColumnWidth = all.map(\.id.count).max() ?? 0

    /// Every code as `explain --list` prints it, one line each, in registry order (by family).
    public static var listing: String { all.map(\.listLine).joined(separator: "\n") }

    /// The severity as people read it: `warning → error` for a code that escalates.
    public var severityText: String {
        escalatesTo.map { "\(severity.rawValue) → \($0.rawValue)" } ?? severity.rawValue
    }

    /// The registered code closest to `text` (a typo, a missing family such as `bot_blocked`, other case):
    /// the fewest edits to either the whole id or the part after the family.
    public static func nearest(to text: String) -> FindingCode {
        let typed = Array(text.lowercased())
        func distance(_ code: FindingCode) -> Int {
            let name = code.id.dropFirst(code.family.rawValue.count + 1)
            return min(
                KeySuggestion.editDistance(typed, Array(code.id)),
                KeySuggestion.editDistance(typed, Array(name)) + 1)
        }
        // `all` is never empty; the first code is only the fallback of an impossible empty registry.
        return all.min { distance($0) < distance($1) } ?? all[0]
    }
}
