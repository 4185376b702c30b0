import Foundation
import HTTPEngine
import Logging
import MonitorCore
import MonitorEndpoint
import MonitorStatus
import MonitorStore
import ServiceLifecycle
import UnixSignals

/// The daemon's services in one `ServiceGroup`: SIGTERM and SIGINT start a graceful shutdown of all of them.
///
/// How one check travels, in one direction (the daemon's architecture in six steps):
/// 1. `SchedulerService` takes the due jobs from `DaemonRuntime`, each with its domain's `BookEntry` (the book is
///    in memory, read from the store once at start) and the silences in force.
/// 2. `CheckPipeline` probes the domain with libcurl (`DomainProbe`).
/// 3. The pure `DomainReducer` (MonitorCore) turns entry + observation into the report, the journal records (state,
///    alert states, history run, timeline, deliveries) and the next entry; `ConditionBook` folds the report into
///    the monitor's own conditions (`monitor.*`) and `ConditionLedger` fans their changes out to the webhooks.
/// 4. `MonitorStore.append` writes all of it in one group-committed transaction (the journal); it reads nothing.
/// 5. `DaemonRuntime.finished` takes the committed entry into the book and schedules the domain's next check.
/// 6. `DeliveryService`, woken when the append queued deliveries, sends them from the outbox.
///
/// A failed append changes nothing in the book (the next check reduces from the same entry); condition changes
/// it carried ride the next append. Housekeeping, reload, endpoint and heartbeat read the runtime and the store.
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
        // READY=1 and `ready` wait for the endpoint's socket; state directory, store and engine are up already.
        let gate = listen == nil ? StartupGate.open() : StartupGate()
        let pipeline = CheckPipeline(engine: engine, store: store, conditions: runtime.conditions, clock: clock)
        let scheduler = SchedulerService(
            runtime: runtime, pipeline: pipeline,
            logger: Logger(label: "scheduler"), clock: clock,
            onStart: {
                guard await gate.wait() else { return false }
                try? notifier.send(.ready, .status(await runtime.statusLine()))
                logger.notice("ready")
                return true
            })
        var services: [any Service] = [
            HousekeepingService(
                runtime: runtime, pipeline: pipeline, notifier: notifier, logger: Logger(label: "housekeeping"),
                clock: clock),
            ReloadService(
                runtime: runtime, store: store, path: options.configPath, environment: options.environment,
                notifier: notifier,
                logger: Logger(label: "reload"), clock: clock),
        ]
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
                    }, listen: listen, gate: gate))
        }
        services.append(
            DeliveryService(
                runtime: runtime, store: store, transport: engine, logger: Logger(label: "delivery"), clock: clock))
        // Shutdown runs in reverse order: the scheduler, last in the list, stops first and finishes its checks.
        services.append(scheduler)
        // After the scheduler, so it stops first: a stopping daemon pings nothing.
        services.append(
            HeartbeatService(
                runtime: runtime, store: store, transport: engine, logger: Logger(label: "heartbeat"), clock: clock))
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
        // A task that ignores cancellation must not keep the process past systemd's 30 s: after 3 s more the
        // process ends (a crash report names the task) rather than hanging.
        configuration.maximumCancellationDuration = .seconds(3)
        let group = ServiceGroup(configuration: configuration)
        do {
            try await group.run()
        } catch {
            // The group may report another service's reaction first; a failed start-up is the cause.
            if let failure = gate.failure { throw EndpointBindError(reason: failure) }
            throw error
        }
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
            health: { await DaemonHealth.check(runtime: runtime, store: store, now: clock()) },
            status: {
                // Configured domains only, like `status --config`.
                let configured = await runtime.configuration.domains.map(\.name)
                let now = clock()
                let snapshot = try await StatusReader(store: store.reader).snapshot(
                    now: now, domains: configured, silences: await runtime.configuration.maintenance.silences(at: now))
                return Array(try MonitorJSON.encoder().encode(snapshot))
            },
            overview: { query in
                let configured = await runtime.configuration.domains.map(\.name)
                let now = clock()
                return try await StatusPageReader(store: store.reader).overview(
                    now: now, configured: configured, lastCycle: await runtime.lastTick, query: query,
                    silences: await runtime.configuration.maintenance.silences(at: now))
            },
            domainPage: { raw in
                // `/domains/Shop.Example` and the U-label find the configured A-label.
                let name = (try? DomainName.normalize(raw)) ?? raw
                let configured = await runtime.isConfigured(name)
                let now = clock()
                return try await StatusPageReader(store: store.reader).domain(
                    name, now: now, configured: configured,
                    silences: await runtime.configuration.maintenance.silences(at: now))
            },
            basicAuth: { await runtime.configuration.endpoint.basicAuth },
            hosts: { await runtime.configuration.endpoint.hosts },
            api: APISources(
                store: store, configured: { await runtime.configuration.domains.map(\.name) },
                isConfigured: { await runtime.isConfigured($0) },
                maintenance: { await runtime.configuration.maintenance.silences(at: $0) }, now: clock))
    }
}
