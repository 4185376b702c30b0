import AASA
import Foundation
import MonitorCore
import MonitorEvaluation
import TestSupport
import Testing

@Suite("Monitor events and their IDs")
struct MonitorEventTests {
    @Test("event IDs are evt_ and a 26-character ULID: reproducible with a seed, ordered by time")
    func eventIDs() {
        var generator = SeededGenerator(state: 42)
        let early = EventID.make(at: Date(timeIntervalSince1970: 1_800_000_000), using: &generator)
        let late = EventID.make(at: Date(timeIntervalSince1970: 1_800_000_001), using: &generator)
        #expect(early.hasPrefix("evt_") && early.count == 30)
        #expect(early.dropFirst(4).allSatisfy { "0123456789ABCDEFGHJKMNPQRSTVWXYZ".contains($0) })
        #expect(early < late)
        var again = SeededGenerator(state: 42)
        #expect(EventID.make(at: Date(timeIntervalSince1970: 1_800_000_000), using: &again) == early)
        // The first ten characters are the 48-bit time (after two pad bits): 0 ms is ten zeros.
        #expect(
            EventID.make(at: Date(timeIntervalSince1970: 0), using: &generator).dropFirst(4).prefix(10)
                == "0000000000")
    }

    @Test("cdn.propagated carries the measured delay and the hash Apple now serves")
    func cdnPropagated() throws {
        let event = MonitorEvent.cdnPropagated(
            id: "evt_1", domain: "example.com", delaySeconds: 5_400, hash: "sha256:ab", at: .now)
        #expect(event.type == .cdnPropagated)
        #expect(event.payload == .cdnPropagated(delaySeconds: 5_400, hash: "sha256:ab", verdict: nil))
        let json = String(decoding: try MonitorJSON.encoder().encode(event), as: UTF8.self)
        #expect(json.contains(#""code":"cdn.propagated""#))
        #expect(json.contains(#""severity":"info""#))
        #expect(json.contains(#""detail":{"delay_seconds":5400,"hash":"sha256:ab"}"#))
        #expect(json.contains("1 h 30 min"))
    }

    @Test("events survive a JSON round trip with snake_case keys, as the outbox stores them")
    func codable() throws {
        let diff = DocumentDiff(sameMeaning: false, canChangeBehavior: false, hashA: "a", hashB: "b", changes: [])
        let events = [
            MonitorEvent.originChanged(
                id: "evt_1", domain: "example.com", diff: diff, at: Date(timeIntervalSince1970: 5)),
            MonitorEvent.test(id: "evt_2", at: Date(timeIntervalSince1970: 6)),
        ]
        let data = try JSONEncoder().encode(events)
        #expect(try JSONDecoder().decode([MonitorEvent].self, from: data) == events)
        #expect(String(decoding: data, as: UTF8.self).contains("occurred_at"))
    }

    @Test(
        "a stored row without what its kind needs is refused as unreadable (the outbox dead-letters it), never a trap",
        arguments: [
            #"{"id":"e","type":"alert.firing","occurred_at":"2026-11-21T19:12:03Z","domain":"d","code":"cdn.stale","#
                + #""severity":"error","message":"m","reminder":false}"#,
            #"{"id":"e","type":"origin.changed","occurred_at":"2026-11-21T19:12:03Z","domain":"d"}"#,
            #"{"id":"e","type":"cdn.propagated","occurred_at":"2026-11-21T19:12:03Z","domain":"d","detail":{}}"#,
            #"{"id":"e","type":"monitor.resolved","occurred_at":"2026-11-21T19:12:03Z","domain":"","#
                + #""code":"monitor.store","detail":{}}"#,
        ])
    func unreadableRows(json: String) {
        #expect(throws: DecodingError.self) {
            try MonitorJSON.decoder().decode(MonitorEvent.self, from: Data(json.utf8))
        }
    }

    @Test("each kind carries its own fields: a renderer switches on the payload to read them")
    func payloadPerKind() {
        let event = MonitorEvent.test(id: "evt_1", at: Date(timeIntervalSince1970: 6))
        #expect(event.type == .test)
        #expect(event.alert == nil)
        #expect(event.identity == nil)
        let alert = MonitorEvent.Alert(code: .cdnStale, source: .cdn, severity: .warning, message: "m")
        let firing = MonitorEvent(
            id: "evt_2", occurredAt: .now, domain: "example.com",
            payload: .alertFiring(alert, reminder: false, consequences: []))
        #expect(firing.identity == FindingIdentity(domain: "example.com", code: .cdnStale, source: .cdn, subject: ""))
    }
}
