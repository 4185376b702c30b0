import Foundation
import Hummingbird
import MonitorCore
import MonitorEvaluation
import NIOCore

/// An API failure as the client sees it: `{"error": {"code": "…", "message": "…"}}` with its HTTP status.
///
/// The message names what is wrong and where (the parameter or field); it never carries a secret or an internal
/// error's text, which goes to the log instead.
struct APIError: Error, Sendable {
    var status: HTTPResponse.Status
    var code: String
    var message: String
    /// Extra headers (`Allow` on a 405).
    var headers: HTTPFields = [:]

    /// 400 for a query or path parameter.
    static func parameter(_ name: String, _ message: String) -> APIError {
        APIError(status: .badRequest, code: "invalid_parameter", message: "\(name): \(message)")
    }

    /// 400 for a field of the request body.
    static func field(_ name: String, _ message: String) -> APIError {
        APIError(status: .badRequest, code: "invalid_body", message: "\(name): \(message)")
    }

    static func notFound(_ message: String) -> APIError {
        APIError(status: .notFound, code: "not_found", message: message)
    }

    static func methodNotAllowed(
        _ method: HTTPRequest.Method, path: String, allowed: [HTTPRequest.Method]
    )
        -> APIError
    {
        APIError(
            status: .methodNotAllowed, code: "method_not_allowed",
            message: "\(method.rawValue) is not allowed on \(path.prefix(300)); allowed: "
                + allowed.map(\.rawValue).joined(separator: ", "),
            headers: [.allow: allowed.map(\.rawValue).joined(separator: ", ")])
    }

    /// 500: the store could not answer. The cause goes to the log.
    static func unavailable(_ what: String) -> APIError {
        APIError(
            status: .internalServerError, code: "unavailable", message: "\(what) unavailable; see the daemon's log")
    }

    var response: Response {
        struct Body: Encodable {
            struct Detail: Encodable {
                var code: String
                var message: String
            }
            var error: Detail
        }
        var fields = headers
        fields[.contentType] = "application/json"
        fields[.cacheControl] = "no-store"
        let body = (try? MonitorJSON.encoder().encode(Body(error: .init(code: code, message: message)))) ?? Data()
        return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }
}
