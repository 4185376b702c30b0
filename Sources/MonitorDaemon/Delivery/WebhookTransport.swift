import HTTPEngine

/// What delivery needs from the network, and nothing more: one request in, one answer or a thrown failure out.
///
/// The daemon passes its `CurlEngine`; tests pass a script of answers and failures, so every path from a failure
/// kind to an outbox row runs without a network and with an injected clock.
package protocol WebhookTransport: Sendable {
    /// Performs `request`; throws `HTTPFailure`, `HTTPEngineError` or `CancellationError` as `CurlEngine` does.
    func perform(_ request: HTTPRequest) async throws -> HTTPResponse
}

extension CurlEngine: WebhookTransport {}
