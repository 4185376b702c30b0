import BenchmarkSupport
import Foundation
import TestSupport

/// The fixture fleet: one HTTPS server (wildcard certificate `*.bench.test`, minted now) that plays every origin
/// `dN.bench.test` and Apple's CDN `cdn.bench.test`, each serving the same small valid document; and what the
/// daemon is told about whichever fleet it runs against (`Target`: this one or `NginxFleet`).
enum DaemonFleet {
    static let cdnHost = "cdn.bench.test"
    static let document = FixtureFleet.document(app: "bench")

    static func domain(_ index: Int) -> String { "d\(index).bench.test" }

    static func start(domains: Int) async throws -> FixtureServer {
        try await FixtureFleet.start(suffix: "bench.test", domains: domains, document: document, cdnMaxAge: 3600)
    }

    /// Where the daemon finds the fleet: the in-process fixture server or nginx.
    struct Target {
        var connectTo: String
        var caFile: String
        var cdnHost: String
        /// Domains are `d0.<suffix>`, `d1.<suffix>`, …
        var suffix: String
        /// The in-process server, which records requests and counts handshakes; nil for nginx.
        var fixture: FixtureServer?

        static func fixture(_ server: FixtureServer) -> Target {
            Target(
                connectTo: server.wildcardConnectTo, caFile: server.caFile, cdnHost: DaemonFleet.cdnHost,
                suffix: "bench.test",
                fixture: server)
        }

        static func nginx(_ fleet: NginxFleet) -> Target {
            Target(
                connectTo: fleet.connectTo, caFile: fleet.caFile, cdnHost: NginxFleet.cdnHost,
                suffix: NginxFleet.suffix)
        }
    }

    /// The daemon's configuration for `domains` fleet domains, its endpoint on 127.0.0.1:`endpointPort`: one line
    /// per domain, built in one pass (100,000 domains take well under a second).
    static func configuration(
        target: Target, domains: Int, intervalSeconds: Int, concurrency: Int, stateDirectory: String,
        endpointPort: Int
    ) -> String {
        var text = """
            state_dir: \(stateDirectory)
            interval: \(intervalSeconds)s
            listen: 127.0.0.1:\(endpointPort)
            http:
              ca_file: \(target.caFile)
              connect_to: ["\(target.connectTo)"]
              concurrency: \(concurrency)
            cdn:
              base_url: https://\(target.cdnHost)/a/v1/
            domains:

            """
        text.reserveCapacity(text.utf8.count + domains * (target.suffix.utf8.count + 14))
        for index in 0..<domains { text += "  - d\(index).\(target.suffix)\n" }
        return text
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
