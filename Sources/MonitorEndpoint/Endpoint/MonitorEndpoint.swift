import Hummingbird
import HummingbirdCore
import Logging
import MonitorCore
import MonitorEvaluation
import NIOCore
import ServiceLifecycle

/// The daemon's HTTP endpoint for operators and their tools: `GET /metrics` (Prometheus), `GET /healthz` (for
/// probes), `GET /status` (the JSON of `status --json`) and the status pages `GET /` and `GET /domains/NAME`;
/// every other path is 404.
///
/// A `Service`, so the daemon runs it in its `ServiceGroup` beside the scheduler and it stops with the group:
/// graceful shutdown stops accepting connections and lets requests in flight finish. Tests use
/// `withMonitorEndpoint`, which starts it on port 0, hands over the bound address and always shuts it down.
///
/// It listens on loopback by default (the configuration's `listen`): the answers name the monitored domains and
/// their state, which is for operators, not the internet. `endpoint.basic_auth_file` adds HTTP Basic
/// authentication to every route but `/healthz`; a reverse proxy in front is the usual way to publish it.
package struct MonitorEndpoint: Service {
    let listen: ListenAddress
    let sources: EndpointSources
    let logger: Logger
    let limits: EndpointLimits
    let onListening: @Sendable (ListenAddress) async -> Void

    /// Creates the endpoint.
    ///
    /// - Parameters:
    ///   - listen: Where to listen; port 0 picks a free port.
    ///   - sources: Where the answers come from.
    ///   - logger: Where request failures and the server's own messages go.
    ///   - limits: Idle timeout, connection and request-size limits.
    ///   - onListening: Called once the socket is bound, with the actual address (the port port 0 got).
    package init(
        listen: ListenAddress,
        sources: EndpointSources,
        logger: Logger,
        limits: EndpointLimits = .standard,
        onListening: @escaping @Sendable (ListenAddress) async -> Void = { _ in }
    ) {
        self.listen = listen
        self.sources = sources
        self.logger = logger
        self.limits = limits
        self.onListening = onListening
    }

    /// Serves until graceful shutdown or cancellation; throws when the address cannot be bound.
    package func run() async throws {
        let listen = listen
        let onListening = onListening
        if !listen.isLoopback, await sources.basicAuth() == nil {
            logger.warning(
                "the endpoint listens beyond loopback and has no authentication", metadata: ["listen": "\(listen)"])
        }
        let load = EndpointLoad(limits: limits, logger: logger)
        let application = Application(
            router: EndpointRoutes.router(sources: sources, logger: logger, limits: limits, listen: listen),
            server: limits.server(load: load),
            configuration: ApplicationConfiguration(
                address: .hostname(listen.host, port: listen.port), serverName: "aasa-monitor",
                availableConnectionsDelegate: EndpointConnectionGate(load: load)),
            onServerRunning: { channel in
                let bound = channel.localAddress
                await onListening(
                    ListenAddress(host: bound?.ipAddress ?? listen.host, port: bound?.port ?? listen.port))
            },
            logger: logger
        )
        try await application.run()
    }
}

extension MonitorEndpoint: CustomStringConvertible {
    /// A short name for lifecycle logs.
    package var description: String { "endpoint \(listen)" }
}
