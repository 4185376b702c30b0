import AASA
import Foundation
import MonitorCore
import MonitorEvaluation
import TestSupport
import Testing

@Suite("Standard Webhooks signatures")
struct WebhookSignerTests {
    static let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"

    @Test("the signature matches the Standard Webhooks specification's published example")
    func knownVector() throws {
        let signer = try WebhookSigner(secret: Self.secret)
        let body = Array(#"{"test": 2432232314}"#.utf8)
        let signature = signer.signature(id: "msg_p5jXN8AQM9LWM0D4loKWxJek", timestamp: 1_614_265_330, body: body)
        #expect(signature == "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
    }

    @Test("an independent implementation (Python's hmac) verifies a signed body holding non-ASCII text")
    func pythonVerifies() throws {
        let signer = try WebhookSigner(secret: Self.secret)
        let event = MonitorEvent.test(id: "evt_1", domain: "bücher.example", at: Date(timeIntervalSince1970: 1e9))
        let body = try WebhookPayload.render(event: event, format: .standard, deliveryID: "msg_42")
        let headers = Dictionary(
            uniqueKeysWithValues: signer.headers(
                id: "msg_42", timestamp: Date(timeIntervalSince1970: 1_800_000_000.7),
                body: body))
        #expect(headers["webhook-timestamp"] == "1800000000")
        #expect(headers["content-type"] == "application/json")
        let expected = try StandardWebhooksVerifier.signature(
            secret: Self.secret, id: "msg_42", timestamp: "1800000000", body: body)
        #expect(headers["webhook-signature"] == expected)
    }

    @Test("a different timestamp gives a different signature, so each attempt signs anew")
    func timestampIsSigned() throws {
        let signer = try WebhookSigner(secret: Self.secret)
        let body = Array("{}".utf8)
        #expect(
            signer.signature(id: "a", timestamp: 1, body: body) != signer.signature(id: "a", timestamp: 2, body: body))
    }

    @Test(
        "unusable secrets are typed errors that do not repeat the secret",
        arguments: [
            "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "whsec_not base64!", "whsec_c2hvcnQ=",
        ])
    func invalidSecrets(secret: String) {
        #expect(throws: WebhookSecretError.self) { try WebhookSigner(secret: secret) }
        do {
            _ = try WebhookSigner(secret: secret)
        } catch {
            #expect(!error.description.contains(secret))
        }
    }

    @Test("delivery IDs are stable per (event, webhook) and differ between webhooks and events")
    func deliveryIDs() {
        let id = DeliveryIdentity.deliveryID(eventID: "evt_1", webhookName: "ops")
        #expect(id == DeliveryIdentity.deliveryID(eventID: "evt_1", webhookName: "ops"))
        #expect(id.hasPrefix("msg_") && id.count == 36)
        #expect(id != DeliveryIdentity.deliveryID(eventID: "evt_1", webhookName: "dev"))
        #expect(id != DeliveryIdentity.deliveryID(eventID: "evt_2", webhookName: "ops"))
        #expect(
            DeliveryIdentity.deliveryID(eventID: "a", webhookName: "bc")
                != DeliveryIdentity.deliveryID(eventID: "ab", webhookName: "c"))
    }
}
