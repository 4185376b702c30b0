import Logging
import MonitorCore
import MonitorEvaluation
import ServiceLifecycle

/// Runs a `MonitorEndpoint` for the duration of `body`, then shuts it down gracefully, also when `body` throws.
///
/// `body` receives the bound address (with `listen.port == 0`, the port the kernel chose). Meant for tests and
/// one-shot tools; the daemon adds `MonitorEndpoint` to its own `ServiceGroup` instead.
///
/// ```swift
/// try await withMonitorEndpoint(listen: ListenAddress(host: "127.0.0.1", port: 0), sources: sources) { address in
///     // GET http://\(address)/metrics
/// }
/// ```
@discardableResult
package func withMonitorEndpoint<Result: Sendable>(
    listen: ListenAddress,
    sources: EndpointSources,
    logger: Logger = Logger(label: "aasa-monitor.endpoint"),
    limits: EndpointLimits = .standard,
    _ body: (ListenAddress) async throws -> Result
) async throws -> Result {
    let (addresses, continuation) = AsyncStream.makeStream(of: ListenAddress.self)
    let endpoint = MonitorEndpoint(listen: listen, sources: sources, logger: logger, limits: limits) { address in
        continuation.yield(address)
        continuation.finish()
    }
    let group = ServiceGroup(configuration: ServiceGroupConfiguration(services: [endpoint], logger: logger))
    return try await withThrowingTaskGroup(of: Void.self) { tasks in
        tasks.addTask {
            // A server that fails to bind never calls onListening; finishing the stream wakes the waiter below.
            defer { continuation.finish() }
            try await group.run()
        }
        var iterator = addresses.makeAsyncIterator()
        guard let bound = await iterator.next() else {
            try await tasks.waitForAll()
            throw MonitorEndpointError(listen: listen, message: "the endpoint stopped before it was listening")
        }
        do {
            let result = try await body(bound)
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
            return result
        } catch {
            await group.triggerGracefulShutdown()
            try? await tasks.waitForAll()
            throw error
        }
    }
}
