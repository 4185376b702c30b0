import Foundation
import HTTPEngine
import MonitorCore
import MonitorEvaluation

/// `webhook test`: one sample event per webhook, rendered, signed and sent by the same code as every delivery.
package enum WebhookTester {
    /// What one receiver answered.
    package struct Result: Sendable {
        package var webhook: String
        package var delivered: Bool
        /// `ops (standard): answered 200 (2 bytes) [webhook-id msg_…]` — one line for a person; the webhook is named by
        /// its name, and nothing of its URL but `scheme://host/…` is shown: the URL may be the secret.
        package var line: String
    }

    /// Sends a `test` event to each webhook with a new engine, one after the other; `domains` are the configured
    /// ones, in the configuration's order (see `domain(for:configured:)`).
    package static func send(
        to webhooks: [WebhookConfiguration], domains: [String] = [], now: Date
    ) async throws -> [Result] {
        try await withCurlEngine { engine in
            await send(to: webhooks, domains: domains, through: engine, now: now)
        }
    }

    /// The domain a webhook's test event is about: the first configured domain the webhook hears of, so a receiver
    /// that routes or filters by domain treats the test as it will treat real events (a test about `example.com`
    /// said nothing about that); `example.com` only when the configuration has no domain for it.
    package static func domain(for webhook: WebhookConfiguration, configured: [String]) -> String {
        configured.first { webhook.domains?.contains($0) ?? true } ?? webhook.domains?.sorted().first ?? "example.com"
    }

    /// Sends a `test` event to each webhook through `transport`. Every failure is a result, never a thrown error:
    /// a thrown error's text could carry the URL.
    package static func send(
        to webhooks: [WebhookConfiguration], domains: [String] = [], through transport: any WebhookTransport,
        now: Date
    ) async -> [Result] {
        let sender = WebhookSender(transport: transport)
        var generator = SystemRandomNumberGenerator()
        var results: [Result] = []
        for webhook in webhooks {
            let domain = domain(for: webhook, configured: domains)
            let event = MonitorEvent.test(id: EventID.make(at: now, using: &generator), domain: domain, at: now)
            let deliveryID = DeliveryIdentity.deliveryID(eventID: event.id, webhookName: webhook.name)
            let prefix =
                "\(webhook.name) (\(webhook.format.rawValue), \(WebhookURLText.shown(webhook.url))), event about \(domain)"
            let answer: WebhookSender.Answer
            do {
                answer = try await sender.send(event, to: webhook, deliveryID: deliveryID, now: now)
            } catch {
                results.append(Result(webhook: webhook.name, delivered: false, line: "\(prefix): not sent: \(error)"))
                continue
            }
            switch answer.outcome {
            case .status(let status):
                // The size, never the body: whatever the receiver answers (a metadata service's credentials, an
                // internal page) must not be printed by a command anyone with the configuration can run.
                let size = answer.bodyBytes.map { "\($0) byte\($0 == 1 ? "" : "s")" } ?? "over 64 KiB"
                results.append(
                    Result(
                        webhook: webhook.name, delivered: (200...299).contains(status),
                        line: "\(prefix): answered \(status) (\(size)) [webhook-id \(deliveryID)]"))
            case .transportFailure(let text):
                results.append(Result(webhook: webhook.name, delivered: false, line: "\(prefix): no answer: \(text)"))
            }
        }
        return results
    }
}
