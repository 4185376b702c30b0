import Foundation
import TestSupport

/// The in-process fleet several benchmarks share: one HTTPS server (a wildcard certificate `*.<suffix>`, minted now)
/// that plays every origin `dN.<suffix>` and Apple's CDN (`cdn.<suffix>/a/v1/dN.<suffix>`), each serving `document`.
public enum FixtureFleet {
    /// A small valid document naming one app of `bundle` (`9JA89QQLNQ.com.example.<bundle>`).
    public static func document(app bundle: String) -> String {
        #"{"applinks":{"details":[{"appIDs":["9JA89QQLNQ.com.example.\#(bundle)"],"components":[{"/":"/buy/*"}]}]}}"#
    }

    /// Starts the server for `domains` domains; the CDN answers with `Cache-Control: max-age=<cdnMaxAge>`.
    /// `plainPath`: whether the origins serve the document at `/apple-app-site-association` too (else 404).
    public static func start(
        suffix: String, domains: Int, document: String, cdnMaxAge: Int, plainPath: Bool = true
    ) async throws -> FixtureServer {
        let json = [("Content-Type", "application/json")]
        let routes =
            [
                FixtureRoute("/.well-known/apple-app-site-association", .text(document, headers: json)),
                FixtureRoute(
                    "/apple-app-site-association",
                    plainPath ? FixtureResponse.text(document, headers: json) : FixtureResponse(status: 404)),
            ]
            + (0..<domains).map { index in
                FixtureRoute(
                    "/a/v1/d\(index).\(suffix)",
                    .text(document, headers: json + [("Cache-Control", "max-age=\(cdnMaxAge)")]))
            }
        return try await FixtureServer.start(certificate: .valid(for: "*.\(suffix)"), routes: routes)
    }

    /// The `aasa-monitor` next to this executable (`.build/release/aasa-monitor` beside `aasa-bench`).
    public static var siblingMonitor: String {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("aasa-monitor").path
    }
}
