import AASA

/// A Discord webhook message: a short `content` line and one embed coloured by severity.
///
/// Mentions are switched off (`allowed_mentions.parse = []`) so a message holding `@everyone` pings nobody, and
/// every text respects Discord's limits (title 256, description 4096, field name 256, value 1024, 25 fields,
/// content 2000), cut on character boundaries.
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
        content = summary.title.truncated(toUTF16: 2000)
        var fields = summary.facts.map {
            Field(name: $0.label.truncated(toUTF16: 256), value: $0.value.truncated(toUTF16: 1024), inline: true)
        }
        if let reason = summary.appleReason {
            fields.append(Field(name: "Apple's reason", value: reason.truncated(toUTF16: 1024), inline: false))
        }
        if let advice = summary.advice {
            fields.append(Field(name: "What to do", value: advice.truncated(toUTF16: 1024), inline: false))
        }
        embeds = [
            Embed(
                title: summary.title.truncated(toUTF16: 256),
                description: summary.message.truncated(toUTF16: 4096),
                color: Self.color(for: event),
                fields: Array(fields.prefix(25)),
                timestamp: RFC3339.string(event.occurredAt))
        ]
    }

    /// Red for errors, orange for warnings, green for resolves, blue for information.
    static func color(for event: MonitorEvent) -> Int {
        switch (event.type, event.severity) {
        case (.alertResolved, _): 0x2EB67D
        case (.alertFiring, .error): 0xE01E5A
        case (.alertFiring, .warning): 0xECB22E
        default: 0x36C5F0
        }
    }
}
