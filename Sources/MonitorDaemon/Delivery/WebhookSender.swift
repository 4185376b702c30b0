import Foundation
import HTTPEngine
import MonitorCore
import MonitorEvaluation

/// Sends one event to one webhook: renders the format, signs a `standard` body (a new timestamp and signature on
/// every attempt, the same `webhook-id`), and POSTs it through the transport.
///
/// Every failure comes back as an `Answer`, the ones of our own included (unreadable trust anchors, a signer
/// refusing its key, an option libcurl rejects): the caller retries them with backoff like a receiver that did
/// not answer, so none can become a hot loop. Only a stopping daemon (`Stopped`), an event that cannot be
/// rendered (`Unsendable`) and a receiver whose address is refused (`Receiver.Refused`) are thrown; the last two
/// are dead letters at once. No text from here contains the webhook's URL beyond `scheme://host/…`.
///
/// Webhook requests never use the probe's `connect-to` rules or extra CA (those are for origins and the CDN); a
/// webhook may name its own `ca_file` for an internal receiver.
struct WebhookSender: Sendable {
    let transport: any WebhookTransport

    /// What the receiver answered, or why there was no answer.
    struct Answer: Sendable {
        var outcome: DeliveryOutcome
        var retryAfter: String?
        /// The size of the answer's body, for `last_error`; never its words: a private receiver's answer echoed into
        /// `outbox list`, `status` and the API would be a channel to read it back through (issue 32 §9).
        var bodySummary: String
        /// The size of the answer's body, for `webhook test` (which never prints the body); `nil` when there was
        /// no answer, or one over `maximumAnswerBytes`.
        var bodyBytes: Int? = nil
    }

    /// The daemon is stopping (the task was cancelled or the engine shut down): the delivery stays pending and is
    /// sent after the restart.
    struct Stopped: Error, CustomStringConvertible {
        var description: String { "the HTTP engine is shutting down" }
    }

    /// The event cannot be rendered in the webhook's format: no retry can change that.
    struct Unsendable: Error, CustomStringConvertible {
        var description: String
    }

    /// What `last_error` says of an answer's body: its size only.
    static func summary(ofBodyBytes count: Int) -> String {
        count == 0 ? "" : "the answer's body: \(count) bytes, not kept"
    }

    /// The receiver's answers are capped: a webhook is not supposed to answer with much, and a hostile one cannot
    /// fill memory.
    static let maximumAnswerBytes = 64 << 10

    func send(
        _ event: MonitorEvent, to webhook: WebhookConfiguration, deliveryID: String, now: Date
    ) async throws -> Answer {
        let body: [UInt8]
        do {
            body = try WebhookPayload.render(event: event, format: webhook.format, deliveryID: deliveryID)
        } catch {
            throw Unsendable(description: "the event cannot be rendered as \(webhook.format.rawValue): \(error)")
        }
        var headers: HTTPHeaders = ["Content-Type": "application/json"]
        if webhook.format == .standard {
            if let secret = webhook.secret {
                let signer: WebhookSigner
                do {
                    signer = try WebhookSigner(secret: secret.text)
                } catch {
                    return Answer(
                        outcome: .transportFailure("signing: the secret was refused: \(error)"), bodySummary: "")
                }
                for header in signer.headers(id: deliveryID, timestamp: now, body: body)
                where header.name.lowercased() != "content-type" {
                    headers.append(header.name, header.value)
                }
            } else {
                headers.append("webhook-id", deliveryID)
                headers.append("webhook-timestamp", String(WebhookSigner.unixSeconds(now)))
            }
        }
        let receiver = Receiver(webhook: webhook)
        let request = receiver.request(
            method: "POST", headers: headers, body: body, maxBodyBytes: Self.maximumAnswerBytes)
        return try await perform(request, to: receiver)
    }

    private func perform(_ request: HTTPRequest, to receiver: Receiver) async throws -> Answer {
        let url = receiver.url
        do {
            let response = try await transport.perform(request)
            return Answer(
                outcome: .status(response.status), retryAfter: response.headers.first("Retry-After"),
                bodySummary: Self.summary(ofBodyBytes: response.body.count), bodyBytes: response.body.count)
        } catch let failure as HTTPFailure {
            // The engine refused the address it was about to connect to: no retry can make it acceptable.
            if let refused = failure.refused { throw receiver.refusal(refused) }
            if failure.kind == .tooLarge, let status = failure.status {
                // The receiver answered, at length: its status is the answer; only the excess body is dropped.
                return Answer(outcome: .status(status), bodySummary: "")
            }
            let text = WebhookURLText.scrub(failure.curlMessage, url: url)
            return Answer(outcome: .transportFailure("\(failure.identifier): \(text)"), bodySummary: "")
        } catch let error as HTTPEngineError where error.code == .shutDown {
            throw Stopped()
        } catch let error as HTTPEngineError {
            // Never `error.description`: it carries the URL.
            let text = WebhookURLText.scrub(error.message, url: url)
            return Answer(outcome: .transportFailure("\(error.code): \(text)"), bodySummary: "")
        } catch is CancellationError {
            throw Stopped()
        } catch {
            // A transport of another kind (tests): still a failure with backoff, never a hot loop.
            let text = WebhookURLText.scrub("\(error)", url: url)
            return Answer(outcome: .transportFailure("other: \(text)"), bodySummary: "")
        }
    }
}
