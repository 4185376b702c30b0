import Foundation
import MonitorCore

/// What `history DOMAIN --json` prints: `{"domain": …, "events": [{"at": …, "kind": …, …detail}]}`.
public struct HistoryReport: Sendable, Hashable, Encodable {
    public var domain: String
    /// Oldest first.
    public var events: [TimelineEvent]

    public init(domain: String, events: [TimelineEvent]) {
        self.domain = domain
        self.events = events
    }

    enum CodingKeys: String, CodingKey {
        case domain, events
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(domain, forKey: .domain)
        try container.encode(events.map(HistoryEventJSON.init), forKey: .events)
    }
}

/// One event flattened: `at` and `kind`, then the detail's keys (which never use those two names).
private struct HistoryEventJSON: Encodable {
    var event: TimelineEvent

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: DynamicCodingKey.self)
        try container.encode(event.at.rfc3339, forKey: DynamicCodingKey(stringValue: "at"))
        try container.encode(event.kind.rawValue, forKey: DynamicCodingKey(stringValue: "kind"))
        for (key, value) in event.detail where key != "at" && key != "kind" {
            try container.encode(value, forKey: DynamicCodingKey(stringValue: key))
        }
    }
}
