import Foundation
import HTTPEngine
import MonitorCore
import MonitorEvaluation

/// A place the configuration tells the daemon to send to: a webhook today, a heartbeat tomorrow.
///
/// Every request to a receiver is made by `request(method:headers:body:)`, so each carries the same guard: unless
/// the receiver says `allow_private`, the engine refuses to connect to an address in `PrivateAddress.ranges`,
/// judged on the address it actually connects to, after DNS and in any notation (issue 26 §4: a name resolving to
/// `169.254.169.254`, or `::ffff:a9fe:a9fe`, reached the cloud metadata service). A new kind of receiver builds a
/// `Receiver` and gets the guard and the wording of its refusal with it.
struct Receiver: Sendable {
    /// `webhook`, for messages.
    var kind: String
    /// The configured name; messages name the receiver by it, never by its URL (which may be the credential).
    var name: String
    var url: String
    var allowPrivate: Bool
    var caFile: String?
    var timeout: Duration

    init(webhook: WebhookConfiguration) {
        self.kind = "webhook"
        self.name = webhook.name
        self.url = webhook.url
        self.allowPrivate = webhook.allowPrivate
        self.caFile = webhook.caFile
        self.timeout = webhook.timeout
    }

    /// The engine's form of `PrivateAddress.ranges`, the one list `config check` judges literal hosts by.
    static let refusedAddresses: [AddressBlock] = PrivateAddress.ranges.compactMap {
        AddressBlock($0.cidr, name: $0.name)
    }

    /// A request to this receiver, with its address guard, timeout and trust.
    func request(method: String, headers: HTTPHeaders, body: [UInt8]?, maxBodyBytes: Int) -> HTTPRequest {
        var request = HTTPRequest(
            url: url, method: method, headers: headers, body: body,
            userAgent: "aasa-monitor/\(MonitorVersion.current)", timeout: timeout, maxBodyBytes: maxBodyBytes,
            httpsOnly: false, trust: caFile.map { .systemAnd(extraCAFile: $0) } ?? .system)
        if !allowPrivate { request.refusedAddresses = Self.refusedAddresses }
        return request
    }

    /// Why a request to this receiver was not sent: it would have connected to a refused address.
    struct Refused: Error, CustomStringConvertible {
        var description: String
    }

    /// The refusal, naming the receiver by name and `scheme://host/…`, the address and its range, and the way out.
    func refusal(_ refused: RefusedConnection) -> Refused {
        Refused(
            description: "refused: \(kind) \(name) (\(WebhookURLText.shown(url))) connects to \(refused.address), "
                + "a \(refused.block) address, where cloud metadata and local services live; nothing was sent. "
                + "Set allow_private: true on this \(kind) if that receiver is intended")
    }
}
