import Foundation
import TestSupport

/// The fixture fleet: one HTTPS server (wildcard certificate `*.bench.test`, minted now) that plays every origin
/// `dN.bench.test` and Apple's CDN `cdn.bench.test`, each serving the same small valid document.
enum Fleet {
    static let cdnHost = "cdn.bench.test"
    static let document =
        #"{"applinks":{"details":[{"appIDs":["9JA89QQLNQ.com.example.bench"],"components":[{"/":"/buy/*"}]}]}}"#

    static func domain(_ index: Int) -> String { "d\(index).bench.test" }

    static func start(domains: Int) async throws -> FixtureServer {
        let json = [("Content-Type", "application/json")]
        let routes =
            [
                FixtureRoute("/.well-known/apple-app-site-association", .text(document, headers: json)),
                FixtureRoute("/apple-app-site-association", .text(document, headers: json)),
            ]
            + (0..<domains).map { index in
                FixtureRoute(
                    "/a/v1/\(domain(index))", .text(document, headers: json + [("Cache-Control", "max-age=3600")]))
            }
        return try await FixtureServer.start(certificate: .valid(for: "*.bench.test"), routes: routes)
    }

    /// The daemon's configuration for `domains` fixture domains.
    static func configuration(
        server: FixtureServer, domains: Int, intervalSeconds: Int, concurrency: Int, stateDirectory: String
    ) -> String {
        """
        state_dir: \(stateDirectory)
        interval: \(intervalSeconds)s
        http:
          ca_file: \(server.caFile)
          connect_to: ["\(server.wildcardConnectTo)"]
          concurrency: \(concurrency)
        cdn:
          base_url: https://\(cdnHost)/a/v1/
        domains:

        """ + (0..<domains).map { "  - \(domain($0))\n" }.joined()
    }

    /// One line of the bare client's replay list: `MS https://host/path`, where MS is the milliseconds from `start`
    /// to the request's arrival, and `https://host/path` comes from its HTTP/2 `:authority` or HTTP/1.1 `Host`;
    /// the URL is prefixed `chain ` for the daemon's first origin request of a check: the one with Apple's user
    /// agent on the well-known path, which reads the certificate chain on a fresh connection.
    static func replayLine(of request: RecordedRequest, start: ContinuousClock.Instant) -> String? {
        func header(_ names: Set<String>) -> String? { request.headers.first { names.contains($0.0.lowercased()) }?.1 }
        guard let host = header([":authority", "host"]) else { return nil }
        let readsChain =
            request.path == "/.well-known/apple-app-site-association"
            && header(["user-agent"])?.hasPrefix("AASA-Bot/") == true
        let offset = request.receivedAt - start
        let milliseconds = offset.components.seconds * 1000 + offset.components.attoseconds / 1_000_000_000_000_000
        return "\(max(0, milliseconds)) " + (readsChain ? "chain " : "") + "https://\(host)\(request.uri)"
    }
}
