import HTTPEngine
import TestSupport

/// A request for `url` that reaches `server` through a connect-to mapping and trusts only its test CA.
///
/// Its limits (`fixtureTimeout`) are far above any delay a loaded machine adds to a fixture that answers: a test whose
/// timeout must fire sets a shorter one against a fixture that never answers (`.never`, `StalledListener`).
func fixtureRequest(_ url: String, server: FixtureServer, host: String = "origin.test") throws -> HTTPRequest {
    HTTPRequest(
        url: url,
        timeout: fixtureTimeout,
        connectTimeout: fixtureTimeout,
        connectTo: [try ConnectToRule(parsing: server.connectTo(host))],
        trust: .only(caFile: server.caFile)
    )
}

/// The timeout of requests to fixtures that answer (issue 31): a fixture decides what is slow by never answering,
/// not by racing a short timeout.
let fixtureTimeout = Duration.seconds(30)

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

/// Waits for `operation` to finish, at most `deadline`: the wait for an event with a deadline that replaces
/// measuring elapsed time. Throws `FixtureTimeoutError` naming `what` when the deadline passes first (and cancels
/// the operation).
func finishes<Value: Sendable>(
    _ what: String, within deadline: Duration, _ operation: @escaping @Sendable () async throws -> Value
) async throws -> Value {
    try await withThrowingTaskGroup(of: Value?.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try await Task.sleep(for: deadline)
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let value = first else {
            throw FixtureTimeoutError(waitingFor: what, activity: FixtureActivity())
        }
        return value
    }
}
