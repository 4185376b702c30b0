import EndToEndSlot
import HTTPEngine
import TestSupport
import Testing

@Suite("Cancellation and shutdown", .endToEndSlot)
struct LifecycleTests {
    @Test("cancelling an in-flight request ends it promptly, closes its connection, and the engine keeps working")
    func cancelInFlight() async throws {
        try await withFixtureServer(
            certificate: .valid(for: "origin.test"), protocols: .http1Only,
            routes: [FixtureRoute("/hang", .never), FixtureRoute("/ok", .text("ok"))]
        ) { server in
            try await withCurlEngine { engine in
                let hanging = try fixtureRequest("https://origin.test/hang", server: server)
                let task = Task { try await engine.perform(hanging) }
                // A hang guard, not a bound: a fresh connection's handshake on a loaded runner once took over 10 s.
                try await server.waitForRequests(count: 1, timeout: .seconds(60))
                task.cancel()
                // The fixture never answers, so only the cancellation or the request's own 30 s timeout can end it:
                // a cancellation that did not end the request leaves it to the timeout, an `HTTPFailure`.
                let outcome = await task.result
                #expect(throws: CancellationError.self) { try outcome.get() }
                try await server.waitUntil("the connection to close") { $0.connectionsClosed >= 1 }
                let after = try await engine.perform(try fixtureRequest("https://origin.test/ok", server: server))
                #expect(after.status == 200)
            }
        }
    }

    @Test("a cancellation that overtakes submission is remembered")
    func cancelBeforeSubmission() async throws {
        try await withCurlEngine { engine in
            let outcome = await Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return try await engine.perform(HTTPRequest(url: "https://never-sent.test/"))
            }.result
            #expect(throws: CancellationError.self) { try outcome.get() }
        }
    }

    @Test("cancellations racing their submissions all end with CancellationError, none left for shutdown to fail")
    func cancellationsRacingSubmission() async throws {
        try await withFixtureServer(certificate: .valid(for: "origin.test"), routes: [FixtureRoute("/hang", .never)]) {
            server in
            try await withCurlEngine { engine in
                let request = try fixtureRequest("https://origin.test/hang", server: server)
                // Cancelling at varied points around submission. `cancel()` runs the request's cancellation handler
                // before it returns (or leaves the flag its start reads), so by the end of the loop every request
                // has its answer or has it waiting for it; a cancellation lost in the inbox leaves its request in
                // flight instead, and the shutdown below fails it with `shutDown`. No deadline: on a loaded runner
                // each `Task.yield()` waits for every other test's work on the cooperative pool, so a wall-clock
                // bound on these 200 tasks measured the machine (issue 31), not the engine.
                var tasks: [Task<HTTPResponse, any Error>] = []
                for index in 0..<200 {
                    let task = Task { try await engine.perform(request) }
                    for _ in 0..<(index % 4) { await Task.yield() }
                    task.cancel()
                    tasks.append(task)
                }
                await engine.shutdown()
                for task in tasks {
                    await #expect(throws: CancellationError.self) { try await task.value }
                }
            }
        }
    }

    @Test("shutdown fails in-flight requests with a shutdown error and refuses new ones")
    func shutdownWithRequestsInFlight() async throws {
        try await withFixtureServer(certificate: .valid(for: "origin.test"), routes: [FixtureRoute("/hang", .never)]) {
            server in
            let engine = try CurlEngine(configuration: .init(maxConcurrentTransfers: 3))
            let request = try fixtureRequest("https://origin.test/hang", server: server)
            // Five requests with room for three: two wait in the engine's queue.
            let tasks = (0..<5).map { _ in Task { try await engine.perform(request) } }
            try await server.waitForRequests(count: 3, timeout: .seconds(60))
            await engine.shutdown()
            for task in tasks {
                let error = await #expect(throws: HTTPEngineError.self) { try await task.value }
                #expect(error?.code == .shutDown)
            }
            let late = await #expect(throws: HTTPEngineError.self) { try await engine.perform(request) }
            #expect(late?.code == .shutDown)
            await engine.shutdown()
        }
    }

    @Test("an engine can be created and shut down repeatedly")
    func repeatedLifecycles() async throws {
        for _ in 0..<5 {
            let engine = try CurlEngine()
            await engine.shutdown()
        }
    }
}
