import Foundation
import MonitorCore
import MonitorStore

/// What `history DOMAIN --json` prints: `{"domain": …, "events": [{"at": …, "kind": …, …detail}]}`.
package struct HistoryReport: Sendable, Hashable, Encodable {
    package var domain: String
    /// Oldest first.
    package var events: [TimelineEvent]
    /// The outcome runs, newest first: "origin_broken from 09:12 to 11:40, 37 checks".
    package var runs: [StoredRun]

    package init(domain: String, events: [TimelineEvent], runs: [StoredRun] = []) {
        self.domain = domain
        self.events = events
        self.runs = runs
    }

    enum CodingKeys: String, CodingKey {
        case domain, events, runs
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(domain, forKey: .domain)
        try container.encode(events.map(HistoryEventJSON.init), forKey: .events)
        try container.encode(runs.map(RunJSON.init), forKey: .runs)
    }
}

/// One run: `{"verdict", "from", "to", "checks", "origin_hash", "cdn_hash"}`.
private struct RunJSON: Encodable {
    var run: StoredRun

    enum CodingKeys: String, CodingKey {
        case verdict, from, to, checks
        case originHash = "origin_hash"
        case cdnHash = "cdn_hash"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(run.verdict, forKey: .verdict)
        try container.encode(run.firstSeen.rfc3339, forKey: .from)
        try container.encode(run.lastSeen.rfc3339, forKey: .to)
        try container.encode(run.checks, forKey: .checks)
        try container.encode(run.originHash, forKey: .originHash)
        try container.encode(run.cdnHash, forKey: .cdnHash)
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
