/// A request the engine did not attempt, or could not finish for reasons of its own: it was shut down, the
/// request was malformed, or the trust store could not be built.
///
/// Network outcomes are `HTTPFailure`; cancellation is `CancellationError`.
public struct HTTPEngineError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The reason, as an open set of values so that new reasons do not break callers' `switch`es.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String

        /// The engine was shut down before or while the request ran.
        public static let shutDown = Code(name: "shut_down")
        /// The request could not be handed to libcurl (bad URL, option rejected).
        public static let invalidRequest = Code(name: "invalid_request")
        /// A combined CA bundle could not be read or written.
        public static let trustStore = Code(name: "trust_store")
        /// libcurl could not be initialised.
        public static let initialization = Code(name: "initialization")

        public var description: String { name }
    }

    /// Why the request failed.
    public var code: Code
    /// The requested URL, when there was a request.
    public var url: String?
    /// A sentence with the details.
    public var message: String

    /// Creates an error.
    public init(code: Code, url: String?, message: String) {
        self.code = code
        self.url = url
        self.message = message
    }

    public var description: String {
        "\(code)\(url.map { " (\($0))" } ?? ""): \(message)"
    }
}
