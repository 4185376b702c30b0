import HTTPEngine
import TestSupport
import Testing
import EndToEndSlot

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
                try await server.waitForRequests(count: 1)
                task.cancel()
                let outcome = try await finishes("the cancelled request to end", within: .seconds(2)) {
                    await task.result
                }
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

    @Test("cancellations racing their submissions all end promptly with CancellationError")
    func cancellationsRacingSubmission() async throws {
        try await withFixtureServer(certificate: .valid(for: "origin.test"), routes: [FixtureRoute("/hang", .never)]) {
            server in
            try await withCurlEngine { engine in
                var hanging = try fixtureRequest("https://origin.test/hang", server: server)
                hanging.timeout = .seconds(60)
                let request = hanging
                // Cancelling at varied points around submission; a cancellation lost in the inbox would leave its
                // request hanging until the 60-second timeout. The deadline stays clear of that timeout and of a
                // loaded two-core runner (CI once needed more than 10 s for the 200 tasks beside Chromium).
                try await finishes("200 cancelled requests to end", within: .seconds(40)) {
                    await withTaskGroup(of: Void.self) { group in
                        for index in 0..<200 {
                            let task = Task { try await engine.perform(request) }
                            for _ in 0..<(index % 4) { await Task.yield() }
                            task.cancel()
                            group.addTask { await #expect(throws: CancellationError.self) { try await task.value } }
                        }
                    }
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
            try await server.waitForRequests(count: 3)
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
