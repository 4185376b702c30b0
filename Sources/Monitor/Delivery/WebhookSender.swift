import Foundation
import HTTPEngine

/// Sends one event to one webhook: renders the format, signs a `standard` body (a new timestamp and signature on
/// every attempt, the same `webhook-id`), and POSTs it through the libcurl engine.
///
/// Webhook requests never use the probe's `connect-to` rules or extra CA (those are for origins and the CDN); a
/// webhook may name its own `ca_file` for an internal receiver.
struct WebhookSender: Sendable {
    let engine: CurlEngine

    /// What the receiver answered, or why there was no answer.
    struct Answer: Sendable {
        var outcome: DeliveryOutcome
        var retryAfter: String?
        /// The first bytes of the answer's body, for logs and `webhook test`.
        var bodyExcerpt: String
    }

    /// The receiver's answers are capped: a webhook is not supposed to answer with much, and a hostile one cannot
    /// fill memory.
    static let maximumAnswerBytes = 64 << 10

    func send(
        _ event: MonitorEvent, to webhook: WebhookConfiguration, deliveryID: String, now: Date
    ) async throws
        -> Answer
    {
        let body = try WebhookPayload.render(event: event, format: webhook.format, deliveryID: deliveryID)
        var headers: HTTPHeaders = ["Content-Type": "application/json"]
        if webhook.format == .standard {
            if let secret = webhook.secret {
                let signer = try WebhookSigner(secret: secret.text)
                for header in signer.headers(id: deliveryID, timestamp: now, body: body)
                where header.name.lowercased() != "content-type" {
                    headers.append(header.name, header.value)
                }
            } else {
                headers.append("webhook-id", deliveryID)
                headers.append("webhook-timestamp", String(WebhookSigner.unixSeconds(now)))
            }
        }
        let request = HTTPRequest(
            url: webhook.url, method: "POST", headers: headers, body: body,
            userAgent: "aasa-monitor/\(MonitorVersion.current)", timeout: webhook.timeout,
            maxBodyBytes: Self.maximumAnswerBytes, httpsOnly: false,
            trust: webhook.caFile.map { .systemAnd(extraCAFile: $0) } ?? .system)
        do {
            let response = try await engine.perform(request)
            return Answer(
                outcome: .status(response.status), retryAfter: response.headers.first("Retry-After"),
                bodyExcerpt: String(decoding: response.body.prefix(500), as: UTF8.self))
        } catch let failure as HTTPFailure where failure.kind == .tooLarge && failure.status != nil {
            // The receiver answered, at length: its status is the answer; only the excess body is dropped.
            return Answer(outcome: .status(failure.status ?? 0), bodyExcerpt: "")
        } catch let failure as HTTPFailure {
            return Answer(outcome: .transportFailure("\(failure.identifier): \(failure.curlMessage)"), bodyExcerpt: "")
        }
    }
}
