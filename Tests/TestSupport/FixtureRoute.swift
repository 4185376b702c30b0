/// How a fixture server answers one path.
///
/// ```swift
/// FixtureRoute("/", .text("hello"))
/// FixtureRoute("/old", .redirect(to: "/new"))
/// FixtureRoute("/aasa") { request in
///     request.userAgent?.contains("AASA-Bot") == true ? .text("for apple") : .text("for browsers")
/// }
/// ```
public struct FixtureRoute: Sendable {
    /// The request path this route answers, without the query.
    public let path: String
    /// Builds the answer for a recorded request.
    public let respond: @Sendable (RecordedRequest) -> FixtureResponse

    /// A route whose answer depends on the request (method, headers, user agent, body).
    public init(_ path: String, respond: @escaping @Sendable (RecordedRequest) -> FixtureResponse) {
        self.path = path
        self.respond = respond
    }

    /// A route with a fixed answer.
    public init(_ path: String, _ response: FixtureResponse) {
        self.init(path) { _ in response }
    }
}

/// One canned answer.
public struct FixtureResponse: Sendable {
    /// How the body is sent.
    public enum Body: Sendable {
        /// With a `Content-Length`.
        case bytes([UInt8])
        /// Without a length (HTTP/1.1 chunked encoding; plain DATA frames over HTTP/2), in pieces.
        case chunked(totalBytes: Int, chunkBytes: Int)
    }

    /// The status code.
    public var status: Int
    /// Header fields, in order; repeats allowed.
    public var headers: [(String, String)]
    /// The body.
    public var body: Body
    /// Wait this long before answering.
    public var delay: Duration
    /// Never answer at all (the client must time out).
    public var neverAnswers: Bool
    /// Bytes written to the connection as they are, instead of a response built from the fields above; for
    /// responses NIO's encoder would refuse (a header line without a colon, invalid UTF-8, a `1xx` before the
    /// final answer, headers and then silence). HTTP/1.1 only.
    public var rawHTTP1: [UInt8]?

    /// Creates an answer.
    public init(
        status: Int = 200,
        headers: [(String, String)] = [],
        body: Body = .bytes([]),
        delay: Duration = .zero,
        neverAnswers: Bool = false,
        rawHTTP1: [UInt8]? = nil
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.delay = delay
        self.neverAnswers = neverAnswers
        self.rawHTTP1 = rawHTTP1
    }

    /// A 200 (or `status`) with a UTF-8 body.
    public static func text(_ text: String, status: Int = 200, headers: [(String, String)] = []) -> FixtureResponse {
        FixtureResponse(status: status, headers: headers, body: .bytes(Array(text.utf8)))
    }

    /// A redirect with a `Location` header.
    public static func redirect(to location: String, status: Int = 301) -> FixtureResponse {
        FixtureResponse(status: status, headers: [("Location", location)])
    }

    /// A 200 whose body of `totalBytes` arrives chunked, without a declared length.
    public static func chunked(totalBytes: Int, chunkBytes: Int = 16_384) -> FixtureResponse {
        FixtureResponse(body: .chunked(totalBytes: totalBytes, chunkBytes: chunkBytes))
    }

    /// Writes `bytes` verbatim on an HTTP/1.1 connection (see `rawHTTP1`); the connection then stays open.
    public static func raw(_ bytes: [UInt8]) -> FixtureResponse {
        FixtureResponse(rawHTTP1: bytes)
    }

    /// Accepts the request and never answers.
    public static let never = FixtureResponse(neverAnswers: true)
}

/// A request as the fixture server received it.
public struct RecordedRequest: Sendable {
    /// The method, for example `GET`.
    public let method: String
    /// The path and query as sent.
    public let uri: String
    /// Header fields in arrival order (HTTP/2 names arrive lower-cased).
    public let headers: [(String, String)]
    /// The request body.
    public let body: [UInt8]
    /// `"1.1"` or `"2"`.
    public let httpVersion: String
    /// When the request was complete: benchmarks replay requests at the moments they first arrived.
    public var receivedAt: ContinuousClock.Instant = .now

    /// The path without the query.
    public var path: String {
        String(uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
    }

    /// Every value of the header `name`, compared case-insensitively.
    public func headerValues(_ name: String) -> [String] {
        headers.filter { $0.0.lowercased() == name.lowercased() }.map(\.1)
    }

    /// The `User-Agent` value.
    public var userAgent: String? { headerValues("user-agent").first }

    /// The body as UTF-8 text.
    public var bodyText: String { String(decoding: body, as: UTF8.self) }
}
