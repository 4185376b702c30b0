/// How a webhook's body is shaped: the versioned `standard` JSON document, or a chat message.
public enum WebhookFormat: String, Sendable, Hashable, Codable, CaseIterable {
    /// The versioned JSON document (`StandardWebhookBody`), signed per Standard Webhooks: for programs.
    case standard
    /// Slack incoming webhook: `text` plus Block Kit `blocks` with mrkdwn.
    case slack
    /// Discord webhook: `content` plus one embed coloured by severity.
    case discord
    /// Microsoft Teams Workflows webhook: an Adaptive Card 1.4 attachment.
    case teams
}
