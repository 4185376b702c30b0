import AASA

/// A Microsoft Teams Workflows webhook message: one Adaptive Card 1.4 attachment.
///
/// The "Post to a channel when a webhook request is received" workflow expects exactly this envelope
/// (`type: message`, an attachment of content type `application/vnd.microsoft.card.adaptive`).
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
        var body = [
            Element(
                type: "TextBlock", text: summary.title, wrap: true, weight: "Bolder", size: "Medium",
                color: Self.color(for: event)),
            Element(type: "TextBlock", text: summary.message, wrap: true),
        ]
        var facts = summary.facts.map { Fact(title: $0.label, value: $0.value) }
        if let reason = summary.appleReason { facts.append(Fact(title: "Apple's reason", value: reason)) }
        body.append(Element(type: "FactSet", facts: facts))
        if let advice = summary.advice {
            body.append(Element(type: "TextBlock", text: "What to do: " + advice, wrap: true))
        }
        attachments = [Attachment(content: Card(body: body))]
    }

    static func color(for event: MonitorEvent) -> String {
        switch (event.type, event.severity) {
        case (.alertResolved, _): "Good"
        case (.alertFiring, .error): "Attention"
        case (.alertFiring, .warning): "Warning"
        default: "Accent"
        }
    }
}
