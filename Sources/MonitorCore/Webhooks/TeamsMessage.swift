import AASA

/// A Microsoft Teams Workflows webhook message: one Adaptive Card 1.4 attachment.
///
/// The "Post to a channel when a webhook request is received" workflow expects exactly this envelope
/// (`type: message`, an attachment of content type `application/vnd.microsoft.card.adaptive`).
///
/// Teams reads markdown in a `TextBlock`'s text and in a fact's title and value, so every text goes through
/// `escape`: an app ID, a `Location` header or a body excerpt reading `[re-authenticate](https://evil.test)` must
/// not become a masked link (issue 26 §4).
struct TeamsMessage: Encodable {
    struct Attachment: Encodable {
        var contentType = "application/vnd.microsoft.card.adaptive"
        var content: Card
    }

    struct Card: Encodable {
        var schema = "http://adaptivecards.io/schemas/adaptive-card.json"
        var type = "AdaptiveCard"
        var version = "1.4"
        var body: [Element]

        enum CodingKeys: String, CodingKey {
            case schema = "$schema"
            case type, version, body
        }
    }

    /// A `TextBlock` or a `FactSet`.
    struct Element: Encodable {
        var type: String
        var text: String?
        var wrap: Bool?
        var weight: String?
        var size: String?
        var color: String?
        var facts: [Fact]?
    }

    struct Fact: Encodable {
        var title: String
        var value: String
    }

    var type = "message"
    var attachments: [Attachment]

    init(event: MonitorEvent) {
        let summary = AlertSummary(event: event)
        let escape = Self.escape
        var body = [
            Element(
                type: "TextBlock", text: escape(summary.title), wrap: true, weight: "Bolder", size: "Medium",
                color: Self.color(for: event)),
            Element(type: "TextBlock", text: escape(summary.message), wrap: true),
        ]
        var facts = summary.facts.map { Fact(title: escape($0.label), value: escape($0.value)) }
        if let reason = summary.appleReason { facts.append(Fact(title: "Apple's reason", value: escape(reason))) }
        body.append(Element(type: "FactSet", facts: facts))
        if let advice = summary.advice {
            body.append(Element(type: "TextBlock", text: "What to do: " + escape(advice), wrap: true))
        }
        attachments = [Attachment(content: Card(body: body))]
    }

    /// An invisible U+2060 WORD JOINER: it breaks a markdown construct without changing what is shown.
    static let joiner: Character = "\u{2060}"

    /// `text` unable to form a link or a template function in Teams' markdown, showing as written.
    ///
    /// Adaptive Cards have no documented escape (a backslash may show), so the constructs are broken where their
    /// syntax needs two characters side by side: a joiner after every `]` breaks inline links (`](`), reference
    /// links (`][`) and link definitions (`]:`); one inside every `{{` and `}}` breaks the `{{DATE(…)}}` functions.
    /// A bare URL stays a link that shows its own address. Bidirectional controls (U+202E) are dropped, so text
    /// cannot appear reversed.
    static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        var previous: Character?
        for character in text {
            if character.unicodeScalars.contains(where: DiscordMessage.isBidiControl) { continue }
            if (character == "{" || character == "}") && previous == character { escaped.append(joiner) }
            escaped.append(character)
            if character == "]" { escaped.append(joiner) }
            previous = character
        }
        return escaped
    }

    static func color(for event: MonitorEvent) -> String {
        switch event.payload {
        case .alertResolved: "Good"
        case .alertFiring(let alert, _, _) where alert.severity == .error: "Attention"
        case .alertFiring(let alert, _, _) where alert.severity == .warning: "Warning"
        default: "Accent"
        }
    }
}
