import Crypto
import Foundation

/// Signs webhook bodies per Standard Webhooks: `v1,` + base64(HMAC-SHA256(key, "id.timestamp.body")).
///
/// The secret is `whsec_` + base64 of the key, as receivers' Standard Webhooks libraries expect it. Timestamp and
/// signature are recomputed on every attempt; the id stays the same (receivers deduplicate on it).
public struct WebhookSigner: Sendable {
    private let key: SymmetricKey

    /// A signer for `secret` (`whsec_<base64>`).
    public init(secret: String) throws(WebhookSecretError) {
        guard secret.hasPrefix("whsec_") else { throw WebhookSecretError(reason: "it does not start with whsec_") }
        let encoded = String(secret.dropFirst("whsec_".count))
        guard let bytes = Data(base64Encoded: encoded) else {
            throw WebhookSecretError(reason: "the part after whsec_ is not valid base64")
        }
        guard bytes.count >= 16 else {
            throw WebhookSecretError(reason: "the key is \(bytes.count) bytes; use at least 16 (24–64 recommended)")
        }
        key = SymmetricKey(data: bytes)
    }

    /// The `webhook-signature` header value for one attempt.
    public func signature(id: String, timestamp: Int64, body: [UInt8]) -> String {
        var message = Array("\(id).\(timestamp).".utf8)
        message.append(contentsOf: body)
        let mac = HMAC<SHA256>.authenticationCode(for: message, using: key)
        return "v1," + Data(mac).base64EncodedString()
    }

    /// The headers of one attempt: `webhook-id`, `webhook-timestamp` (unix seconds), `webhook-signature` and
    /// `content-type: application/json`.
    public func headers(id: String, timestamp: Date, body: [UInt8]) -> [(name: String, value: String)] {
        let seconds = Self.unixSeconds(timestamp)
        return [
            ("webhook-id", id),
            ("webhook-timestamp", String(seconds)),
            ("webhook-signature", signature(id: id, timestamp: seconds, body: body)),
            ("content-type", "application/json"),
        ]
    }

    /// Whole seconds since 1970, rounded down.
    public static func unixSeconds(_ time: Date) -> Int64 {
        Int64(time.timeIntervalSince1970.rounded(.down))
    }
}

/// A webhook secret that cannot be used, with the reason (the secret itself is never repeated).
public struct WebhookSecretError: Error, Sendable, Hashable, CustomStringConvertible {
    public var reason: String

    public var description: String { "invalid webhook secret: \(reason) (expected whsec_ followed by base64)" }
}
