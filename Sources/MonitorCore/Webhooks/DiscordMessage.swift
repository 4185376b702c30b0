import AASA
import MonitorEvaluation

/// A Discord webhook message: a short `content` line and one embed coloured by severity.
///
/// Mentions are switched off (`allowed_mentions.parse = []`) so a message holding `@everyone` pings nobody; every
/// text is escaped for Discord's markdown (`escape`), so an app ID, a `Location` header or a body excerpt reading
/// `[re-authenticate](https://evil.test)` shows as written and never as a masked link (issue 26 §4); and every
/// text respects Discord's limits (title 256, description 4096, field name 256, value 1024, 25 fields,
/// content 2000), cut on character boundaries after escaping.
struct DiscordMessage: Encodable {
    struct Embed: Encodable {
        var title: String
        var description: String
        var color: Int
        var fields: [Field]
        var timestamp: String
    }

    struct Field: Encodable {
        var name: String
        var value: String
        var inline: Bool
    }

    struct AllowedMentions: Encodable {
        var parse: [String] = []
    }

    var content: String
    var embeds: [Embed]
    var allowedMentions = AllowedMentions()

    enum CodingKeys: String, CodingKey {
        case content, embeds
        case allowedMentions = "allowed_mentions"
    }

    init(event: MonitorEvent) {
        let summary = AlertSummary(event: event)
        func text(_ value: String, _ limit: Int) -> String { Self.escape(value).truncated(toUTF16: limit) }
        content = text(summary.title, 2000)
        var fields = summary.facts.map { Field(name: text($0.label, 256), value: text($0.value, 1024), inline: true) }
        if let reason = summary.appleReason {
            fields.append(Field(name: "Apple's reason", value: text(reason, 1024), inline: false))
        }
        if let advice = summary.advice {
            fields.append(Field(name: "What to do", value: text(advice, 1024), inline: false))
        }
        embeds = [
            Embed(
                title: text(summary.title, 256),
                description: text(summary.message, 4096),
                color: Self.color(for: event),
                fields: Array(fields.prefix(25)),
                timestamp: RFC3339.string(event.occurredAt))
        ]
    }

    /// Characters Discord's markdown gives a meaning anywhere in a line: emphasis, spoilers, code, quotes, masked
    /// links (`[text](url)`), and the `<…>` forms of mentions, channels and timestamps.
    static let markdownCharacters: Set<Character> = ["\\", "*", "_", "~", "`", "|", ">", "[", "]", "(", ")", "<", "@"]

    /// `text` with every markdown character behind a backslash, Discord's escape for any ASCII punctuation: it
    /// shows exactly as written. Bidirectional controls (U+202E) are dropped, so text cannot appear reversed.
    static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text {
            if markdownCharacters.contains(character) {
                escaped.append("\\")
            } else if character.unicodeScalars.contains(where: Self.isBidiControl) {
                continue
            }
            escaped.append(character)
        }
        return escaped
    }

    /// U+061C, U+200E–U+200F, U+202A–U+202E, U+2066–U+2069: the controls that reorder displayed text.
    static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// Red for errors, orange for warnings, green for resolves, blue for information.
    static func color(for event: MonitorEvent) -> Int {
        switch event.payload {
        case .alertResolved: 0x2EB67D
        case .alertFiring(let alert, _, _) where alert.severity == .error: 0xE01E5A
        case .alertFiring(let alert, _, _) where alert.severity == .warning: 0xECB22E
        default: 0x36C5F0
        }
    }
}
