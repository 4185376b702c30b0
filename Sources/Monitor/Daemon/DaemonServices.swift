import Foundation
import HTTPEngine
import Logging
import MonitorCore
import ServiceLifecycle
import UnixSignals

/// The daemon's services in one `ServiceGroup`: SIGTERM and SIGINT start a graceful shutdown of all of them.
struct DaemonServices {
    let runtime: DaemonRuntime
    let store: MonitorStore
    let engine: CurlEngine
    let notifier: SystemdNotifier
    let options: Daemon.Options
    let logger: Logger
    let clock: @Sendable () -> Date

    func run(listen: ListenAddress?) async throws {
        let runtime = runtime
        let notifier = notifier
        let logger = logger
        let scheduler = SchedulerService(
            runtime: runtime, pipeline: CheckPipeline(engine: engine, store: store, clock: clock),
            logger: Logger(label: "scheduler"), clock: clock,
            onStart: {
                try? notifier.send(.ready, .status(await runtime.statusLine()))
                logger.notice("ready")
            })
        var services: [any Service] = [
            HousekeepingService(
                runtime: runtime, store: store, notifier: notifier, logger: Logger(label: "housekeeping"), clock: clock),
            ReloadService(
                runtime: runtime, path: options.configPath, environment: options.environment, notifier: notifier,
                logger: Logger(label: "reload"), clock: clock),
        ]
        if let listen {
            services.append(
                MonitorEndpoint(
                    listen: listen, sources: endpointSources(), logger: Logger(label: "endpoint"),
                    onListening: { address in logger.notice("endpoint listening", metadata: ["address": "\(address)"]) }
                ))
        }
        services.append(
            DeliveryService(
                runtime: runtime, store: store, transport: engine, logger: Logger(label: "delivery"), clock: clock))
        // Shutdown runs in reverse order: the scheduler, last in the list, stops first and finishes its checks.
        services.append(scheduler)
        // The group's own logger stays at notice: at debug it prints every service's properties.
        var groupLogger = Logger(label: "lifecycle")
        groupLogger.logLevel = max(.notice, logger.logLevel)
        var configuration = ServiceGroupConfiguration(
            services: services.map { ServiceGroupConfiguration.ServiceConfiguration(service: $0) },
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: groupLogger)
        // Checks in flight get this long to finish (under systemd's TimeoutStopSec=30s); then they are cancelled,
        // which leaves the database consistent: each check is one transaction.
        configuration.maximumGracefulShutdownDuration = .seconds(25)
        let group = ServiceGroup(configuration: configuration)
        try await group.run()
    }

    private func endpointSources() -> EndpointSources {
        let runtime = runtime
        let store = store
        let clock = clock
        return EndpointSources(
            metrics: {
                let now = clock()
                return MetricsSnapshot(
                    domains: await runtime.metrics(now: now),
                    outboxDeliveries: (try? await store.outboxCounts()).map {
                        ["pending": $0.pending, "retrying": $0.retrying, "dead": $0.dead]
                    } ?? [:],
                    schedulerLastProgress: await runtime.lastTick)
            },
            health: { await runtime.health(now: clock()) },
            status: {
                // Configured domains only, like `status --config`.
                let configured = await runtime.configuration.domains.map(\.name)
                let snapshot = try await StatusReader(store: store.reader).snapshot(now: clock(), domains: configured)
                return Array(try MonitorJSON.encoder().encode(snapshot))
            },
            overview: {
                let configured = await runtime.configuration.domains.map(\.name)
                return try await StatusPageReader(store: store.reader).overview(
                    now: clock(), configured: configured, lastCycle: await runtime.lastTick)
            },
            domainPage: { raw in
                // `/domains/Shop.Example` and the U-label find the configured A-label.
                let name = (try? DomainName.normalize(raw)) ?? raw
                let configured = await runtime.configuration.domains.contains { $0.name == name }
                return try await StatusPageReader(store: store.reader).domain(
                    name, now: clock(), configured: configured)
            },
            basicAuth: { await runtime.configuration.endpoint.basicAuth })
    }
}
