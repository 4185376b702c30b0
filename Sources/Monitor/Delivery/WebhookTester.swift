import Foundation
import HTTPEngine

/// `webhook test`: one sample event per webhook, rendered, signed and sent by the same code as every delivery.
public enum WebhookTester {
    /// What one receiver answered.
    public struct Result: Sendable {
        public var webhook: String
        public var delivered: Bool
        /// `ops: 200 (delivery msg_…) ok` — one line for a person; never the webhook's URL, which may be a secret.
        public var line: String
    }

    /// Sends a `test` event to each webhook, one after the other.
    public static func send(to webhooks: [WebhookConfiguration], now: Date) async throws -> [Result] {
        try await withCurlEngine { engine in
            let sender = WebhookSender(engine: engine)
            var generator = SystemRandomNumberGenerator()
            var results: [Result] = []
            for webhook in webhooks {
                let event = MonitorEvent.test(id: EventID.make(at: now, using: &generator), at: now)
                let deliveryID = DeliveryIdentity.deliveryID(eventID: event.id, webhookName: webhook.name)
                let answer = try await sender.send(event, to: webhook, deliveryID: deliveryID, now: now)
                switch answer.outcome {
                case .status(let status):
                    let ok = (200...299).contains(status)
                    let body =
                        answer.bodyExcerpt.isEmpty
                        ? "" : ": \(answer.bodyExcerpt.replacingOccurrences(of: "\n", with: " "))"
                    results.append(
                        Result(
                            webhook: webhook.name, delivered: ok,
                            line: "\(webhook.name) (\(webhook.format.rawValue)): answered \(status)\(body) "
                                + "[webhook-id \(deliveryID)]"))
                case .transportFailure(let text):
                    results.append(
                        Result(
                            webhook: webhook.name, delivered: false,
                            line: "\(webhook.name) (\(webhook.format.rawValue)): no answer: \(text)"))
                }
            }
            return results
        }
    }
}
