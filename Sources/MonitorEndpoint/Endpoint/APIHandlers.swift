import AASA
import Foundation
import Hummingbird
import Logging
import MonitorCore
import MonitorEvaluation
import MonitorStatus
import MonitorStore
import NIOCore

/// The API's handlers: thin over the readers the commands use, each turning a request into their call and their
/// answer into JSON (or a badge).
struct APIHandlers: Sendable {
    let api: APISources?
    let basicAuth: @Sendable () async -> BasicAuthUsers?
    /// The listener is on loopback, so writes are allowed without `endpoint.basic_auth_file`.
    let writesOpen: Bool
    let logger: Logger

    /// The most history events one request may ask for.
    static let historyLimit = 10_000

    func respond(
        _ route: APIRoute, request: Request, context: EndpointRequestContext
    ) async throws(APIError)
        -> Response
    {
        // The document needs no store; every other route does.
        guard let api else {
            if route.name == .openAPI { return Self.document }
            throw APIError.unavailable("the API (this endpoint has no store)")
        }
        switch route.name {
        case .openAPI:
            return Self.document
        case .domains:
            return try await domains(request, api: api)
        case .domain:
            let name = try await configuredDomain(context, api: api)
            let now = api.now()
            let snapshot = try await read("status") {
                try await StatusReader(store: api.store.reader).snapshot(
                    now: now, domains: [name], silences: await api.maintenance(now))
            }
            return try Self.json(.ok, snapshot)
        case .history:
            let name = try await configuredDomain(context, api: api)
            let limit = try Self.integer(request, "limit", default: 1000, range: 1...Self.historyLimit)
            let report = try await read("history") {
                try await StatusReader(store: api.store.reader).history(domain: name, limit: limit)
            }
            return try Self.json(.ok, report)
        case .silences:
            let now = api.now()
            let silences = try await read("silences") {
                try await SilenceBook.list(reader: api.store.reader, maintenance: await api.maintenance(now), now: now)
            }
            return try Self.json(.ok, SilenceList(silences: silences))
        case .addSilence:
            return try await addSilence(request, api: api)
        case .expireSilence:
            return try await expireSilence(request, context: context, api: api)
        case .badge:
            return try await badge(context, api: api)
        }
    }

    /// `GET /api/v1/openapi.json`: the document kept in the repository, as it is, made into a response once.
    static let document: Response = EndpointRoutes.response(
        .ok, contentType: "application/json", body: OpenAPIDocument.json)

    /// `{"silences": […]}`: what `silence list --json` prints, in an object.
    struct SilenceList: Encodable {
        var silences: [SilenceStatus]
    }

    // MARK: Silences

    private func addSilence(_ request: Request, api: APISources) async throws(APIError) -> Response {
        let user = try await authorizeWrite(request)
        let object = try await Self.bodyObject(request)
        let now = api.now()
        let allowed: Set = ["domains", "all", "code", "for", "ends_at", "reason", "author"]
        if let unknown = object.keys.sorted().first(where: { !allowed.contains($0) }) {
            throw APIError.field(
                String(unknown.prefix(100)),
                "not a field of a silence (domains, all, code, for, ends_at, reason, author)")
        }
        let domains = try Self.strings(object, "domains") ?? []
        let all = try Self.bool(object, "all") ?? false
        let code = try Self.string(object, "code")
        let duration = try Self.string(object, "for")
        let author = Self.recordedAuthor(
            user: user, claimed: try Self.string(object, "author"), authenticated: await basicAuth() != nil)
        let endsAt = try Self.string(object, "ends_at").map { text throws(APIError) in
            do throws(RFC3339Error) { return try RFC3339.parse(text) } catch {
                throw APIError.field("ends_at", error.description)
            }
        }
        guard let reason = try Self.string(object, "reason") else {
            throw APIError.field("reason", "required: say why")
        }
        let configured = Set(await api.configured())
        let order: SilenceOrder
        do throws(SilenceOrderError) {
            order = try SilenceOrder(
                domains: domains, all: all, code: code, duration: duration, endsAt: endsAt, reason: reason,
                author: author, now: now, configured: configured)
        } catch {
            throw APIError.field(error.field, error.message)
        }
        let silence = try await read("silences") { try await order.add(to: api.silenceStore, at: now) }
        var response = try Self.json(.created, SilenceStatus(silence, now: now))
        response.headers[.location] = "/api/v1/silences/\(silence.id)"
        return response
    }

    private func expireSilence(
        _ request: Request, context: EndpointRequestContext, api: APISources
    ) async throws(APIError) -> Response {
        let user = try await authorizeWrite(request)
        let text = Self.pathParameter(context, "id")
        let id: Int64
        do { id = try SilenceBook.id(text) } catch { throw APIError.parameter(error.field, error.message) }
        let now = api.now()
        let expired = try await read("silences") {
            try await SilenceBook.expire(id: id, store: api.silenceStore, by: user, now: now)
        }
        guard let expired else { throw APIError.notFound("no silence \(id)") }
        return try Self.json(.ok, SilenceStatus(expired, now: now))
    }

    /// The author a silence records. An authenticated write is its user's, whatever the body claims: a claimed
    /// author other than the user is kept beside it (`bob (for alice)`), never instead (issue 32 §5: bob could sign
    /// as "alice (security lead)"). Without authentication (a loopback listener) nobody is known: the claim stands.
    static func recordedAuthor(user: String, claimed: String?, authenticated: Bool) -> String {
        guard authenticated else { return claimed ?? user }
        guard let claimed, claimed != user else { return user }
        return "\(user) (for \(claimed))"
    }

    /// Who writes: the user of the verified `Authorization` header (the middleware checked it), or `api` on a
    /// loopback listener without `endpoint.basic_auth_file`. Anywhere else writes are refused: without credentials
    /// anyone who reaches the port could silence every alert.
    private func authorizeWrite(_ request: Request) async throws(APIError) -> String {
        if await basicAuth() != nil {
            return BasicAuthMiddleware<EndpointRequestContext>.credentials(request.headers[.authorization])?.0 ?? "api"
        }
        guard writesOpen else {
            throw APIError(
                status: .forbidden, code: "forbidden",
                message: "writes need endpoint.basic_auth_file when the endpoint listens beyond loopback")
        }
        return "api"
    }

    // MARK: Parameters

    /// The configured A-label named by the `domain` path parameter (any form `DomainName.normalize` reads).
    private func configuredDomain(
        _ context: EndpointRequestContext, api: APISources
    ) async throws(APIError)
        -> String
    {
        let raw = Self.pathParameter(context, "domain")
        guard let name = try? DomainName.normalize(raw), await api.isConfigured(name) else {
            throw APIError.notFound("\(raw.prefix(253)) is not a configured domain")
        }
        return name
    }

    static func pathParameter(_ context: EndpointRequestContext, _ name: String) -> String {
        let raw = context.parameters.get(name) ?? ""
        return raw.removingPercentEncoding ?? raw
    }

    /// The query parameter `name` as an integer in `range`; `default` when absent.
    static func integer(
        _ request: Request, _ name: String, default value: Int, range: ClosedRange<Int>
    ) throws(APIError) -> Int {
        let values = request.uri.queryParameters[values: Substring(name)]
        guard let text = values.first else { return value }
        guard values.count == 1 else { throw APIError.parameter(name, "given more than once") }
        guard let number = Int(text), range.contains(number) else {
            throw APIError.parameter(
                name, "'\(text.prefix(40))' is not a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }

    /// The query parameter `name`, given at most once.
    static func query(_ request: Request, _ name: String) throws(APIError) -> String? {
        let values = request.uri.queryParameters[values: Substring(name)]
        guard values.count <= 1 else { throw APIError.parameter(name, "given more than once") }
        return values.first.map(String.init)
    }

    /// The request body as a JSON object; `Content-Type: application/json` is required, so a page elsewhere
    /// cannot post a form here (a form's types need no CORS preflight).
    static func bodyObject(_ request: Request) async throws(APIError) -> [String: BodyValue] {
        let type = request.headers[.contentType]?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces)
        guard type?.lowercased() == "application/json" else {
            throw APIError(
                status: .unsupportedMediaType, code: "unsupported_media_type",
                message: "the body must be JSON, sent with Content-Type: application/json")
        }
        var request = request
        let buffer: ByteBuffer
        do { buffer = try await request.collectBody(upTo: EndpointLimits.standard.maximumBodyBytes) } catch {
            throw APIError(
                status: .contentTooLarge, code: "too_large",
                message: "the body is larger than \(EndpointLimits.standard.maximumBodyBytes) bytes")
        }
        let value: JSONValue
        do throws(JSONParseError) {
            value = try JSONParser(maximumDepth: 32).parse(Array(buffer.readableBytesView))
        } catch {
            throw APIError(
                status: .badRequest, code: "invalid_body",
                message: "the body is not JSON: \(error.message) at line \(error.line), column \(error.column)")
        }
        guard case .object(let members) = value else {
            throw APIError(status: .badRequest, code: "invalid_body", message: "the body is not a JSON object")
        }
        var object: [String: BodyValue] = [:]
        for member in members {
            // `{"for": "1m", "for": "999d"}` means two things; which one a reader takes differs (issue 32 §7).
            guard object.updateValue(member.value, forKey: member.key) == nil else {
                throw APIError.field(String(member.key.prefix(100)), "given more than once")
            }
        }
        return object
    }

    /// One value of a request body, as JSON typed it (so `"true"` is no boolean and `1` no string), read by the
    /// strict parser the AASA files are read with.
    typealias BodyValue = JSONValue

    /// The body field `name` as a string, `nil` when absent or `null`.
    static func string(_ object: [String: BodyValue], _ name: String) throws(APIError) -> String? {
        switch object[name] {
        case nil, .null?: return nil
        case .string(let value)?: return value
        default: throw APIError.field(name, "expected a string")
        }
    }

    static func bool(_ object: [String: BodyValue], _ name: String) throws(APIError) -> Bool? {
        switch object[name] {
        case nil, .null?: return nil
        case .bool(let value)?: return value
        default: throw APIError.field(name, "expected true or false")
        }
    }

    static func strings(_ object: [String: BodyValue], _ name: String) throws(APIError) -> [String]? {
        switch object[name] {
        case nil, .null?: return nil
        case .array(let values)?:
            var strings: [String] = []
            for value in values {
                guard case .string(let text) = value else { throw APIError.field(name, "expected an array of strings") }
                strings.append(text)
            }
            return strings
        default: throw APIError.field(name, "expected an array of strings")
        }
    }

    // MARK: Answers

    static func json(_ status: HTTPResponse.Status, _ value: some Encodable) throws(APIError) -> Response {
        let data: Data
        do { data = try MonitorJSON.encoder().encode(value) } catch { throw APIError.unavailable("the answer") }
        return EndpointRoutes.response(status, contentType: "application/json", body: Array(data))
    }

    /// Runs a store read; a failure is logged and answered 500 without its text.
    func read<Value>(_ what: String, _ body: () async throws -> Value) async throws(APIError) -> Value {
        do { return try await body() } catch {
            logger.error("endpoint could not read \(what)", metadata: ["error": "\(error)"])
            throw APIError.unavailable(what)
        }
    }
}
