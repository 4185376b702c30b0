import Foundation
import HTTPEngine
import Logging
import MonitorCore
import MonitorEndpoint
import MonitorEvaluation
import MonitorPostgres
import MonitorStatus
import MonitorStore
import ServiceLifecycle
import UnixSignals

/// The daemon's services in one `ServiceGroup`: SIGTERM and SIGINT start a graceful shutdown of all of them.
///
/// How one check travels, in one direction (the daemon's architecture in six steps; Sources/MonitorDaemon/Daemon/README.md):
/// 1. `DaemonCore` (MonitorCore) takes the due checks from its schedule, each with its domain's `BookEntry` (the
///    book is in memory, read from the journal once at start) and the silences in force; `DaemonExecutor` starts them.
/// 2. `CheckRun` probes the domain with libcurl (`DomainProbe`), in parallel with the other checks.
/// 3. The pure `DomainReducer` turns entry + observation into the report and the journal records (state, alert
///    states, history run, timeline, deliveries).
/// 4. The core accepts the report: it folds it into the monitor's own conditions (`monitor.*`), judges it again if
///    the held sources changed meanwhile, and queues its append; appends leave the core in sequence order, one
///    batch (one transaction) at a time, so the stored condition set only moves forward.
/// 5. Once the journal committed it, the core takes the new entry into the book and schedules the domain's next
///    check.
/// 6. The core wakes the delivery pass when an append queued deliveries; it sends them from the outbox.
///
/// A failed append changes nothing in the book (the next check reduces from the same entry); condition changes
/// are kept with their event ids and retried. Housekeeping, reload, endpoint and heartbeat talk to the executor by
/// events and read it through its methods.
struct DaemonServices {
    let executor: DaemonExecutor
    let store: MonitorStore
    let engine: CurlEngine
    let notifier: SystemdNotifier
    let options: Daemon.Options
    let logger: Logger
    let clock: @Sendable () -> Date

    func run(listen: ListenAddress?) async throws {
        let executor = executor
        let logger = logger
        let clock = clock
        var services: [any Service] = [
            HousekeepingService(
                executor: executor, store: store, notifier: notifier, logger: Logger(label: "housekeeping"),
                clock: clock),
            ReloadService(
                executor: executor, store: store, path: options.configPath, environment: options.environment,
                notifier: notifier,
                logger: Logger(label: "reload"), clock: clock),
        ]
        if let cluster = executor.cluster {
            services.append(ClusterMirror(cluster: cluster.store, store: store, logger: Logger(label: "mirror")))
        }
        // READY=1 and `ready` wait for the endpoint's socket (the core starts no check before `listening`); state
        // directory, store and engine are up already.
        if let listen {
            let sources = endpointSources()
            services.append(
                GatedEndpoint(
                    endpoint: { opened in
                        MonitorEndpoint(
                            listen: listen, sources: sources, logger: Logger(label: "endpoint"),
                            onListening: { address in
                                logger.notice("endpoint listening", metadata: ["address": "\(address)"])
                                await opened(address)
                            })
                    }, listen: listen,
                    started: { executor.send(.listening(now: clock())) },
                    failed: { executor.send(.startupFailed(reason: $0)) }))
        } else {
            executor.send(.listening(now: clock()))
        }
        // Shutdown runs in reverse order: the executor stops after the heartbeat and finishes its checks, their
        // appends and a last delivery pass before the endpoint, reload and housekeeping stop.
        services.append(executor)
        // After the executor, so it stops first: a stopping daemon pings nothing.
        services.append(
            HeartbeatService(
                executor: executor, store: store, transport: engine, logger: Logger(label: "heartbeat"), clock: clock))
        // The group's own logger stays at notice: at debug it prints every service's properties.
        var groupLogger = Logger(label: "lifecycle")
        groupLogger.logLevel = max(.notice, logger.logLevel)
        var configuration = ServiceGroupConfiguration(
            services: services.map { ServiceGroupConfiguration.ServiceConfiguration(service: $0) },
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: groupLogger)
        // Checks in flight get this long to finish (under systemd's TimeoutStopSec=30s); then they are cancelled,
        // which leaves the database consistent: each batch is one transaction.
        configuration.maximumGracefulShutdownDuration = .seconds(25)
        // A task that ignores cancellation must not keep the process past systemd's 30 s: after 3 s more the
        // process ends (a crash report names the task) rather than hanging.
        configuration.maximumCancellationDuration = .seconds(3)
        try await ServiceGroup(configuration: configuration).run()
    }

    private func endpointSources() -> EndpointSources {
        let executor = executor
        let store = store
        let clock = clock
        return EndpointSources(
            metrics: {
                let now = clock()
                return MetricsSnapshot(
                    domains: await executor.metrics(now: now),
                    outboxDeliveries: (try? await store.outboxCounts()).map {
                        ["pending": $0.pending, "retrying": $0.retrying, "dead": $0.dead]
                    } ?? [:],
                    schedulerLastProgress: await executor.lastTick)
            },
            health: { await DaemonHealth.check(executor: executor, store: store, now: clock()) },
            status: {
                // Configured domains only, like `status --config`.
                let configured = await executor.configuredNames
                let now = clock()
                let snapshot = try await StatusReader(store: store.reader).snapshot(
                    now: now, domains: configured, silences: await executor.configuration.maintenance.silences(at: now))
                return Array(try MonitorJSON.encoder().encode(snapshot))
            },
            overview: { query in
                let configured = await executor.configuredNames
                let now = clock()
                return try await StatusPageReader(store: store.reader).overview(
                    now: now, configured: configured, lastCycle: await executor.lastTick, query: query,
                    silences: await executor.configuration.maintenance.silences(at: now))
            },
            domainPage: { raw in
                // `/domains/Shop.Example` and the U-label find the configured A-label.
                let name = (try? DomainName.normalize(raw)) ?? raw
                let configured = await executor.isConfigured(name)
                let now = clock()
                return try await StatusPageReader(store: store.reader).domain(
                    name, now: now, configured: configured,
                    silences: await executor.configuration.maintenance.silences(at: now))
            },
            basicAuth: { await executor.configuration.endpoint.basicAuth },
            hosts: { await executor.configuration.endpoint.hosts },
            api: APISources(
                store: store, silenceStore: executor.cluster?.store, configured: { await executor.configuredNames },
                isConfigured: { await executor.isConfigured($0) },
                maintenance: { await executor.configuration.maintenance.silences(at: $0) }, now: clock))
    }
}
