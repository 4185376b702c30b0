import Foundation
import Hummingbird
import Logging
import MonitorCore
import MonitorEvaluation
import NIOCore

/// `/api/v1/`: the JSON API, and `/badge/{domain}.svg`. Each route is a row of `APIRoute.all`, which the
/// registration walks and the OpenAPI document's test holds against the document.
extension EndpointRoutes {
    /// Adds the API and the badges to `router`; call it after the other routes (its middleware answers 404 and 405
    /// under `/api/v1/` as JSON, and applies to routes added after it).
    static func addAPI(
        to router: Router<EndpointRequestContext>, sources: EndpointSources, listen: ListenAddress?, logger: Logger
    ) {
        router.add(middleware: APIFallbackMiddleware())
        let handlers = APIHandlers(
            api: sources.api, basicAuth: sources.basicAuth, writesOpen: listen?.isLoopback ?? false, logger: logger)
        for route in APIRoute.all {
            router.on(RouterPath(route.routerPath), method: route.method) { request, context in
                do {
                    return try await handlers.respond(route, request: request, context: context)
                } catch let error as APIError {
                    return error.response
                }
            }
        }
    }
}

/// One route of the API: its method, its path as the OpenAPI document writes it, and the router's pattern.
struct APIRoute: Sendable, Hashable {
    enum Name: Sendable, Hashable {
        case domains, domain, history, silences, addSilence, expireSilence, openAPI, badge
    }

    var name: Name
    var method: HTTPRequest.Method
    /// The path in the OpenAPI document: `/api/v1/domains/{domain}`.
    var path: String

    /// The router's pattern: `{name}` becomes `:name`; the badge's `{domain}.svg` is one parameter (`:file`), its
    /// suffix checked by the handler.
    var routerPath: String {
        if name == .badge { return "/badge/:file" }
        return path.replacingOccurrences(of: "{", with: ":").replacingOccurrences(of: "}", with: "")
    }

    static let all: [APIRoute] = [
        APIRoute(name: .domains, method: .get, path: "/api/v1/domains"),
        APIRoute(name: .domain, method: .get, path: "/api/v1/domains/{domain}"),
        APIRoute(name: .history, method: .get, path: "/api/v1/domains/{domain}/history"),
        APIRoute(name: .silences, method: .get, path: "/api/v1/silences"),
        APIRoute(name: .addSilence, method: .post, path: "/api/v1/silences"),
        APIRoute(name: .expireSilence, method: .delete, path: "/api/v1/silences/{id}"),
        APIRoute(name: .openAPI, method: .get, path: "/api/v1/openapi.json"),
        APIRoute(name: .badge, method: .get, path: "/badge/{domain}.svg"),
    ]

    /// The methods allowed on `path` (HEAD with GET), or `nil` when no route has that path.
    static func allowedMethods(_ path: String) -> [HTTPRequest.Method]? {
        let components = path.split(separator: "/", omittingEmptySubsequences: false)
        let methods = all.filter { route in
            let pattern = route.routerPath.split(separator: "/", omittingEmptySubsequences: false)
            return pattern.count == components.count
                && zip(pattern, components).allSatisfy { $0.hasPrefix(":") ? !$1.isEmpty : $0 == $1 }
        }.map(\.method)
        guard !methods.isEmpty else { return nil }
        return methods.contains(.get) ? methods + [.head] : methods
    }
}

/// Under `/api/v1/` (and `/badge/`), a path no route has is a JSON 404 and a method the path does not take a
/// JSON 405 with `Allow`, instead of the router's empty 404.
struct APIFallbackMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let path = request.uri.path
        guard path.hasPrefix("/api/") || path.hasPrefix("/badge/") else { return try await next(request, context) }
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            if let allowed = APIRoute.allowedMethods(path), !allowed.contains(request.method) {
                return APIError.methodNotAllowed(request.method, path: path, allowed: allowed).response
            }
            return APIError.notFound("no such path: \(path.prefix(300)) (see /api/v1/openapi.json)").response
        }
    }
}
