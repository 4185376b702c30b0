/// Durations as the configuration writes them: a number and a unit, `30s`, `15m`, `24h`, `14d`, or several in a
/// row (`1h30m`). `0` needs no unit. A bare number is refused: `interval: 15` could mean seconds or minutes.
enum ConfigurationDuration {
    private static let unitSeconds: [Character: Int64] = ["s": 1, "m": 60, "h": 3_600, "d": 86_400, "w": 604_800]

    /// The longest duration any setting, flag or silence may name: 100 years.
    static let longest: Int64 = 100 * 365 * 86_400

    /// The duration `text` names, or why it names none.
    static func parse(_ text: String) -> Result<Duration, DurationTextError> {
        let trimmed = text.trimmingBlanks()
        if trimmed == "0" { return .success(.zero) }
        if !trimmed.isEmpty, trimmed.allSatisfy(\.isASCIIDigit) {
            return .failure(
                .init(reason: "a number needs a unit: \(trimmed)s, \(trimmed)m, \(trimmed)h or \(trimmed)d"))
        }
        var total: Int64 = 0
        var digits = ""
        for character in trimmed {
            if character.isASCIIDigit {
                digits.append(character)
                continue
            }
            guard let unit = unitSeconds[character] else {
                return .failure(.init(reason: "expected a duration like 30s, 15m, 24h, 14d or 1h30m"))
            }
            guard !digits.isEmpty, let value = Int64(digits) else {
                return .failure(.init(reason: "expected a number before '\(character)', like 30s, 15m, 24h or 14d"))
            }
            let (product, overflowA) = value.multipliedReportingOverflow(by: unit)
            let (sum, overflowB) = total.addingReportingOverflow(product)
            guard !overflowA, !overflowB, sum <= longest else {
                return .failure(.init(reason: "the duration is longer than 100 years"))
            }
            total = sum
            digits = ""
        }
        guard digits.isEmpty, !trimmed.isEmpty else {
            return .failure(.init(reason: "expected a duration like 30s, 15m, 24h, 14d or 1h30m"))
        }
        return .success(.seconds(total))
    }

    /// `15m`, `1h30m`, `14d`: the shortest text that `parse` reads back as the same duration.
    static func text(_ duration: Duration) -> String {
        var seconds = duration.components.seconds
        if seconds == 0 { return "0s" }
        var text = ""
        for (unit, size) in [("d", Int64(86_400)), ("h", 3_600), ("m", 60), ("s", 1)] where seconds >= size {
            text += "\(seconds / size)\(unit)"
            seconds %= size
        }
        return text
    }
}

/// Why a duration could not be read.
struct DurationTextError: Error, Sendable, Hashable {
    var reason: String
}

extension String {
    /// The text without leading and trailing spaces and tabs.
    func trimmingBlanks() -> String {
        var slice = Substring(self)
        while let first = slice.first, first == " " || first == "\t" { slice.removeFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice.removeLast() }
        return String(slice)
    }
}
