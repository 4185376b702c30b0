import AASA
import Foundation
import MonitorEvaluation

/// Renders an event into a webhook body, always through `JSONEncoder` (escaping is never hand-written).
public enum WebhookPayload {
    /// The body for `event` in `format`. `deliveryID` is the standard format's `id` (= the `webhook-id` header).
    ///
    /// The body does not depend on the attempt: its `timestamp` is when the event occurred, so every retry sends
    /// the same bytes and only the `webhook-timestamp` header and signature change.
    public static func render(event: MonitorEvent, format: WebhookFormat, deliveryID: String) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data: Data
        switch format {
        case .standard: data = try encoder.encode(StandardWebhookBody(event: event, deliveryID: deliveryID))
        case .slack: data = try encoder.encode(SlackMessage(event: event))
        case .discord: data = try encoder.encode(DiscordMessage(event: event))
        case .teams: data = try encoder.encode(TeamsMessage(event: event))
        }
        return Array(data)
    }
}

/// The `standard` body, version 2: version 1 plus `incident` (the domain's incident id, to group alerts),
/// `caused_by` (`null` for an alert: caused findings never alert) and `consequences` (the findings this alert
/// causes, one line each). Optional fields are written as `null`, never left out, so receivers can rely on every key.
struct StandardWebhookBody: Encodable {
    var event: MonitorEvent
    var deliveryID: String

    enum CodingKeys: String, CodingKey {
        case version, type, id, timestamp, domain, code, severity, message, detail, verdict, diff
        case source, subject, reminder, flapping, incident, consequences
        case eventID = "event_id"
        case causedBy = "caused_by"
    }

    func encode(to encoder: any Encoder) throws {
        let fields = EventFields(event.payload)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(2, forKey: .version)
        try container.encode(event.type, forKey: .type)
        try container.encode(deliveryID, forKey: .id)
        try container.encode(event.id, forKey: .eventID)
        try container.encode(RFC3339.string(event.occurredAt), forKey: .timestamp)
        try container.encode(event.domain, forKey: .domain)
        try container.encode(fields.code, forKey: .code)
        try container.encode(fields.severity, forKey: .severity)
        try container.encode(fields.message, forKey: .message)
        try container.encode(fields.detail, forKey: .detail)
        try container.encode(fields.verdict, forKey: .verdict)
        try container.encode(fields.diff, forKey: .diff)
        try container.encode(fields.source, forKey: .source)
        try container.encode(fields.subject, forKey: .subject)
        try container.encode(fields.reminder, forKey: .reminder)
        try container.encode(fields.flapping, forKey: .flapping)
        try container.encode(fields.incident, forKey: .incident)
        // Always `null`: an alert is never caused (a caused finding does not alert), and other kinds have no cause.
        try container.encodeNil(forKey: .causedBy)
        try container.encode(fields.consequences, forKey: .consequences)
    }
}
