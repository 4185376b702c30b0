import Foundation
import TestSupport

/// `aasa-bench engine serve h2|h1`: runs the fixture server in its own process, so the benchmark's
/// `getrusage(RUSAGE_SELF)` counts only the client.
///
/// Protocol on stdio: prints `READY <port> <ca-file>` once listening; answers each `stats` line on stdin with
/// `STATS <handshakes> <requests> <connections>`; exits when stdin closes.
enum Serve {
    static func run(protocols: FixtureServer.Protocols) async throws {
        let server = try await FixtureServer.start(
            certificate: .valid(for: "*.bench.test"),
            protocols: protocols,
            routes: [FixtureRoute("/apple-app-site-association", .text(#"{"applinks":{"details":[]}}"#))]
        )
        print("READY \(server.port) \(server.caFile)")
        fflush(nil)
        // Blocking reads on the main thread are fine here: the server runs on NIO's own threads.
        while let line = readLine() {
            if line == "stats" {
                let activity = server.activity
                print(
                    "STATS \(activity.tlsHandshakesCompleted) \(activity.requests.count) "
                        + "\(activity.connectionsAccepted)")
                fflush(nil)
            }
        }
        await server.shutdown()
    }
}
