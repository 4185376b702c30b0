import HTTPEngine
import TestSupport

/// A request for `url` that reaches `server` through a connect-to mapping and trusts only its test CA.
func fixtureRequest(_ url: String, server: FixtureServer, host: String = "origin.test") throws -> HTTPRequest {
    HTTPRequest(
        url: url,
        timeout: .seconds(20),
        connectTo: [try ConnectToRule(parsing: server.connectTo(host))],
        trust: .only(caFile: server.caFile)
    )
}

/// Performs `request` and returns the `HTTPFailure` it must throw; fails the test if it succeeds.
func expectFailure(_ request: HTTPRequest, on engine: CurlEngine) async throws -> HTTPFailure {
    do {
        let response = try await engine.perform(request)
        throw UnexpectedSuccess(status: response.status)
    } catch let failure as HTTPFailure {
        return failure
    }
}

/// A request that should have failed came back with a response.
struct UnexpectedSuccess: Error {
    let status: Int
}
