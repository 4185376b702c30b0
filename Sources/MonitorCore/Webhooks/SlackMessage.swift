import Foundation

/// A Slack incoming-webhook message: `text` (the notification fallback) and Block Kit blocks in mrkdwn.
///
/// Slack's only escapes are `&`, `<` and `>` (https://api.slack.com/reference/surfaces/formatting#escaping), so a
/// hostile message cannot forge links or mentions; lengths stay within Block Kit's limits (header 150, section
/// text 3000).
struct SlackMessage: Encodable {
    struct Text: Encodable {
        var type: String
        var text: String
    }

    struct Block: Encodable {
        var type: String
        var text: Text?
        var elements: [Text]?
    }

    var text: String
    var blocks: [Block]

    init(event: MonitorEvent) {
        let summary = AlertSummary(event: event)
        text = Self.escape(summary.title + ": " + summary.message).truncated(toUTF16: 3000)
        var body = Self.mrkdwn(summary.message, emphasised: summary.emphasised)
        if let reason = summary.appleReason { body += "\n*Apple's reason:* " + Self.escape(reason) }
        if let advice = summary.advice { body += "\n*What to do:* " + Self.escape(advice) }
        let facts = summary.facts.map { "\($0.label): \(Self.escape($0.value))" }.joined(separator: " · ")
        blocks = [
            Block(type: "header", text: Text(type: "plain_text", text: summary.title.truncated(toUTF16: 150))),
            Block(type: "section", text: Text(type: "mrkdwn", text: body.truncated(toUTF16: 3000))),
            Block(type: "context", elements: [Text(type: "mrkdwn", text: facts.truncated(toUTF16: 3000))]),
        ]
    }

    /// `text` as mrkdwn, each emphasised line in bold on its own.
    ///
    /// Slack's bold does not span lines (the asterisks show), needs no space just inside the asterisks, and ends
    /// at an asterisk of the text (a pattern such as `/buy/*`): such a line stays plain.
    static func mrkdwn(_ text: String, emphasised: Set<String>) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard emphasised.contains(String(line)), !trimmed.isEmpty, !trimmed.contains("*") else {
                return escape(String(line))
            }
            let indent = line.prefix { $0 == " " }
            return indent + "*" + escape(trimmed) + "*"
        }.joined(separator: "\n")
    }

    /// Slack's control characters in mrkdwn text.
    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;")
            .replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}
