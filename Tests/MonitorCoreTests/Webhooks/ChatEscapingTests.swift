import AASA
import Foundation
import MonitorCore
import MonitorEvaluation
import Testing

/// Issue 26 §4, "Phishing links in Discord and Teams alerts": origin-controlled text (an app ID, a `Location`
/// header, a body excerpt, Apple's reason) shows as written in every chat format, never as a masked link.
@Suite("Chat formats escape origin-controlled text")
struct ChatEscapingTests {
    static let phishing = "[re-authenticate](https://evil.test)"

    static func event() -> MonitorEvent {
        let alert = MonitorEvent.Alert(
            code: .originRedirect, source: .wellKnown, subject: "ABCDE12345.\(phishing)", severity: .error,
            message: "the origin redirects to \(phishing) [x][1]\n[1]: https://evil.test {{DATE(2017-02-14T06:08:00Z)}}"
                + " \u{202E}moc.elppa",
            detail: ["apple_failure_reason": .string("SWCERR00301 \(phishing)")], verdict: .originBroken)
        return MonitorEvent(
            id: "evt_01", occurredAt: Date(timeIntervalSince1970: 1_795_288_323), domain: "example.com",
            payload: .alertFiring(alert, reminder: false, consequences: []))
    }

    static func strings(in value: Any) -> [String] {
        switch value {
        case let text as String: [text]
        case let array as [Any]: array.flatMap(strings)
        case let object as [String: Any]: object.values.flatMap(strings)
        default: []
        }
    }

    static func rendered(_ format: WebhookFormat) throws -> [String] {
        let body = try WebhookPayload.render(event: event(), format: format, deliveryID: "msg_1")
        return strings(in: try JSONSerialization.jsonObject(with: Data(body)))
    }

    @Test("discord: every markdown character is escaped, so no text forms a link; bidi controls are dropped")
    func discord() throws {
        let texts = try Self.rendered(.discord)
        let all = texts.joined(separator: "\n")
        #expect(all.contains(#"\[re-authenticate\]\(https://evil.test\)"#), "\(all)")
        for text in texts {
            // Every `[`, `]`, `(` and `)` is behind a backslash.
            let characters = Array(text)
            for (index, character) in characters.enumerated() where "[]()".contains(character) {
                #expect(index > 0 && characters[index - 1] == "\\", "\(text)")
            }
            #expect(!text.unicodeScalars.contains("\u{202E}"))
        }
        // The app ID (subject) and Apple's reason are escaped too, not only the message.
        #expect(texts.contains { $0.hasPrefix("ABCDE12345.\\[") }, "\(texts)")
        #expect(texts.contains { $0.hasPrefix("SWCERR00301 \\[") }, "\(texts)")
    }

    @Test("teams: no ](, ][, ]: or {{ survives in any card text; what is shown is unchanged")
    func teams() throws {
        let texts = try Self.rendered(.teams)
        for text in texts {
            for construct in ["](", "][", "]:", "{{", "}}"] {
                #expect(!text.contains(construct), "\(construct) in \(text)")
            }
            #expect(!text.unicodeScalars.contains("\u{202E}"))
        }
        let shown = texts.map { $0.replacingOccurrences(of: "\u{2060}", with: "") }
        #expect(shown.contains { $0.contains(Self.phishing) }, "\(shown)")
        #expect(shown.contains { $0 == "ABCDE12345.\(Self.phishing)" }, "\(shown)")
    }
}
