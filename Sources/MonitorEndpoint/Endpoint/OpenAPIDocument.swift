/// The OpenAPI 3.1 document of `/api/v1/` and `/badge/{domain}.svg`, served at `/api/v1/openapi.json`.
///
/// Kept as `openapi.json` beside this file and compiled into the binary (`.embedInCode` in Package.swift), so the
/// packaged daemon, one executable, needs no resource bundle. Written by hand beside the routes (`APIRoute.all`)
/// rather than generating the server from it: the handlers are a few lines over the readers `status` uses.
/// `APIOpenAPITests` holds the two together: every route is in it, and every field of a real answer is in its schema.
enum OpenAPIDocument {
    static let json = String(decoding: PackageResources.openapi_json, as: UTF8.self)
}
