import AASA
import Foundation
import MonitorCore
import MonitorEvaluation
import Testing

@Suite("Webhook payloads in all four formats")
struct WebhookPayloadTests {
    static let hostile = "He said \"stop\" —\nnew line\ttab \\ backslash <@here> & <https://evil|click> 😀 日本語 café"

    static func event(message: String = hostile) -> MonitorEvent {
        let alert = MonitorEvent.Alert(
            code: .cdnMissing, source: .cdn, severity: .error, message: message,
            detail: ["apple_failure_reason": "SWCERR00301 Timeout \"quoted\"", "age": 12], verdict: .cdnMissing)
        return MonitorEvent(
            id: "evt_01", occurredAt: Date(timeIntervalSince1970: 1_795_288_323), domain: "example.com",
            payload: .alertFiring(alert, reminder: false, consequences: []))
    }

    static func parse(_ bytes: [UInt8]) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(bytes))
        return try #require(object as? [String: Any])
    }

    @Test("quotes, newlines, emoji and non-ASCII stay valid JSON in every format", arguments: WebhookFormat.allCases)
    func hostileTextStaysValidJSON(format: WebhookFormat) throws {
        let body = try WebhookPayload.render(event: Self.event(), format: format, deliveryID: "msg_1")
        let json = try Self.parse(body)
        #expect(!json.isEmpty)
        let text = String(decoding: body, as: UTF8.self)
        #expect(text.contains("example.com"))
        #expect(text.contains("😀"))
        #expect(text.contains("日本語"))
    }

    @Test("the standard body carries every documented field, with the message byte for byte")
    func standardFields() throws {
        let json = try Self.parse(
            WebhookPayload.render(event: Self.event(), format: .standard, deliveryID: "msg_abc"))
        #expect(json["version"] as? Int == 2)
        #expect(json["incident"] is NSNull)
        #expect(json["caused_by"] is NSNull)
        #expect(json["consequences"] as? [String] == [])
        #expect(json["type"] as? String == "alert.firing")
        #expect(json["id"] as? String == "msg_abc")
        #expect(json["event_id"] as? String == "evt_01")
        #expect(json["timestamp"] as? String == "2026-11-21T19:12:03Z")
        #expect(json["domain"] as? String == "example.com")
        #expect(json["code"] as? String == "cdn.missing")
        #expect(json["severity"] as? String == "error")
        #expect(json["message"] as? String == Self.hostile)
        #expect(json["verdict"] as? String == "cdn_missing")
        #expect(json["source"] as? String == "cdn")
        #expect(json["reminder"] as? Bool == false)
        #expect(json["diff"] is NSNull)
        let detail = try #require(json["detail"] as? [String: Any])
        #expect(detail["age"] as? Int == 12)
    }

    @Test("slack escapes &, < and > so a message cannot forge links or mentions")
    func slackEscapes() throws {
        let json = try Self.parse(WebhookPayload.render(event: Self.event(), format: .slack, deliveryID: "msg_1"))
        let text = try #require(json["text"] as? String)
        #expect(text.contains("&lt;@here&gt; &amp; &lt;https://evil|click&gt;"))
        #expect(!text.contains("<@here>"))
        let blocks = try #require(json["blocks"] as? [[String: Any]])
        let section = try #require(blocks.first { $0["type"] as? String == "section" }?["text"] as? [String: Any])
        let body = try #require(section["text"] as? String)
        #expect(body.contains("SWCERR00301 Timeout \"quoted\""))
        #expect(body.contains("What to do:"))
    }

    @Test("discord colours by severity, switches mentions off and keeps the description within 4096 characters")
    func discordLimits() throws {
        let long = String(repeating: "é😀", count: 3_000)
        let json = try Self.parse(
            WebhookPayload.render(event: Self.event(message: long), format: .discord, deliveryID: "msg_1"))
        let embed = try #require((json["embeds"] as? [[String: Any]])?.first)
        let description = try #require(embed["description"] as? String)
        #expect(description.utf16.count <= 4096)
        #expect(description.hasSuffix("…"))
        #expect(description.dropLast().hasSuffix("😀") || description.dropLast().hasSuffix("é"))
        #expect(embed["color"] as? Int == 0xE01E5A)
        #expect((embed["title"] as? String)?.utf16.count ?? 0 <= 256)
        let mentions = try #require(json["allowed_mentions"] as? [String: Any])
        #expect((mentions["parse"] as? [Any])?.isEmpty == true)
    }

    @Test("teams sends an Adaptive Card 1.4 in a Workflows message envelope")
    func teamsEnvelope() throws {
        let json = try Self.parse(WebhookPayload.render(event: Self.event(), format: .teams, deliveryID: "msg_1"))
        #expect(json["type"] as? String == "message")
        let attachment = try #require((json["attachments"] as? [[String: Any]])?.first)
        #expect(attachment["contentType"] as? String == "application/vnd.microsoft.card.adaptive")
        let card = try #require(attachment["content"] as? [String: Any])
        #expect(card["type"] as? String == "AdaptiveCard")
        #expect(card["version"] as? String == "1.4")
        let body = try #require(card["body"] as? [[String: Any]])
        #expect(body.contains { $0["text"] as? String == Self.hostile })
    }

    @Test("origin.changed carries the semantic diff in the standard body")
    func originChangedCarriesDiff() throws {
        let diff = DocumentDiff(
            sameMeaning: false, canChangeBehavior: true, hashA: "sha256:aa", hashB: "sha256:bb",
            changes: [Change(kind: .appAdded, path: "$.applinks.details[1]", affectsBehavior: true, summary: "added")])
        let event = MonitorEvent.originChanged(id: "evt_9", domain: "example.com", diff: diff, at: .now)
        let json = try Self.parse(WebhookPayload.render(event: event, format: .standard, deliveryID: "msg_9"))
        let encodedDiff = try #require(json["diff"] as? [String: Any])
        #expect(encodedDiff["hash_b"] as? String == "sha256:bb")
        #expect((encodedDiff["changes"] as? [Any])?.count == 1)
    }

    @Test("every finding code of the public interface is registered and has its own advice")
    func adviceCoversEveryCode() throws {
        let codes = [
            "origin.dns", "origin.connect", "origin.timeout", "origin.tls.untrusted", "origin.tls.expired",
            "origin.tls.hostname", "origin.tls.protocol", "origin.tls.expiring", "origin.redirect", "origin.status",
            "origin.too_large", "origin.content_type", "origin.bom", "origin.json", "origin.signed",
            "origin.bot_blocked", "origin.root_only", "origin.root_differs", "origin.slow", "origin.private_address",
            "aasa.no_services", "aasa.type", "aasa.appid_format", "aasa.mixed_formats", "aasa.query_not_string",
            "aasa.unknown_key", "aasa.unreachable_rule", "aasa.exclude_matches_all", "aasa.undefined_variable",
            "aasa.legacy_apps", "aasa.duplicate_key", "cdn.unreachable", "cdn.missing", "cdn.stale", "cdn.only",
            "cdn.invalid", "expect.app_missing", "expect.url",
        ]
        let fallbacks = Set(
            ["origin.x", "aasa.x", "cdn.x", "expect.x", "origin.tls.x", "x"].map { FindingCode(storedID: $0).fix })
        for code in codes {
            let registered = try #require(FindingCode(id: code), "\(code) is not registered")
            #expect(FindingCode(storedID: code).fix == registered.fix)
            #expect(!fallbacks.contains(FindingCode(storedID: code).fix), "\(code) has no advice of its own")
        }
    }
}
