import Crypto

/// The `webhook-id` of one delivery: unique per (event, webhook), the same on every retry.
///
/// `msg_` + the first 32 hex digits (128 bits) of SHA-256 over the event ID, a NUL byte and the webhook's name.
/// Derived rather than stored, so the outbox can recompute it; the NUL keeps ("a", "bc") and ("ab", "c") apart.
public enum DeliveryIdentity {
    public static func deliveryID(eventID: String, webhookName: String) -> String {
        var input = Array(eventID.utf8)
        input.append(0)
        input.append(contentsOf: webhookName.utf8)
        let digest = SHA256.hash(data: input)
        let hex = digest.map { byte in
            let text = String(byte, radix: 16)
            return byte < 16 ? "0" + text : text
        }.joined()
        return "msg_" + hex.prefix(32)
    }
}
