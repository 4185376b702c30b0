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

    /// The registered code closest to `text` (a typo, a missing family such as `bot_blocked`, other case) among
    /// those a domain's alert can carry (no `app.*`): the fewest edits to either the whole id or the part after the
    /// family. For a silence, which names an alert's code.
    public static func nearest(to text: String) -> FindingCode {
        let alertCodes = all.filter { $0.family != .app }
        // `all` is never empty; the first code is only the fallback of an impossible empty registry.
        return nearestID(to: text, among: alertCodes.map(\.id)).flatMap(FindingCode.init(id:)) ?? all[0]
    }

    /// The id among `ids` (dotted, `family.name`) closest to `text`, measured as `nearest(to:)` measures: for
    /// `explain`, which knows every code, the app reader's `app.*` too. `nil` when `ids` is empty.
    public static func nearestID(to text: String, among ids: [String]) -> String? {
        let typed = Array(text.lowercased())
        func distance(_ id: String) -> Int {
            let name = id.firstIndex(of: ".").map { id[id.index(after: $0)...] } ?? Substring(id)
            return min(KeySuggestion.editDistance(typed, Array(id)), KeySuggestion.editDistance(typed, Array(name)) + 1)
        }
        return ids.min { distance($0) < distance($1) }
    }
}
