import Foundation
import HTTPEngine
import Logging
import MonitorCheck
import MonitorCore
import MonitorEndpoint
import MonitorEvaluation
import MonitorPostgres
import MonitorStore
import ServiceLifecycle

/// `aasa-monitor run`: the long-running monitor, from loading the configuration to a clean stop.
package enum Daemon {
    /// What the command line decides.
    package struct Options: Sendable {
        package var configPath: String
        package var stateDirectoryOverride: String?
        package var environment: [String: String]
        package var logLevel: Logger.Level

        package init(
            configPath: String, stateDirectoryOverride: String?, environment: [String: String],
            logLevel: Logger.Level = .info
        ) {
            self.configPath = configPath
            self.stateDirectoryOverride = stateDirectoryOverride
            self.environment = environment
            self.logLevel = logLevel
        }
    }

    /// Runs until SIGTERM or SIGINT; returns `run`'s documented exit code: 0 stopped cleanly, 1 fatal runtime
    /// error, 2 invalid configuration at start, a state database it cannot write, an endpoint that cannot listen or
    /// a `basic_auth_file` whose hashes this system's libcrypt cannot check.
    ///
    /// Start-up order: configuration (with every file and variable it refers to), state directory, store, HTTP
    /// engine, then the service group; `READY=1` and the `ready` line wait until the endpoint is listening, and no
    /// domain is checked before that.
    package static func run(_ options: Options, logger: Logger) async -> Int32 {
        signal(SIGPIPE, SIG_IGN)
        // A reload requested before the reload service traps SIGHUP must not kill the daemon (the default action).
        signal(SIGHUP, SIG_IGN)
        let raisedLimit = LocalResources.raiseSoftLimit()
        let configuration: MonitorConfiguration
        do {
            configuration = try ConfigurationFile.load(path: options.configPath, environment: options.environment)
        } catch {
            logger.critical("invalid configuration", metadata: ["file": "\(options.configPath)"])
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            return 2
        }
        // A libcrypt that cannot check the file's hashes would answer every login 401 without a word (issue 32 §9).
        if configuration.listen != nil, let users = configuration.endpoint.basicAuth,
            let problem = PasswordHash.unusable(users)
        {
            logger.critical("\(problem)")
            return 2
        }
        // The parse freed most of what it allocated (100,000 domains: tens of MB of YAML nodes); given back now, the
        // book below does not stack on top of it in the start-up peak (measured at ready: 146.7 against 122.2 MB).
        ProcessHeap.releaseFreeMemory()
        let directory: StateDirectory
        do {
            directory = try StateDirectory.prepare(
                configured: configuration.stateDirectory, override: options.stateDirectoryOverride,
                environment: options.environment, isRoot: geteuid() == 0)
        } catch {
            logger.critical("\(error)")
            return 2
        }
        if let note = directory.note { logger.warning("\(note)") }
        // Before the database is opened: a second daemon on this directory leaves it as it found it.
        let lock: StateDirectoryLock
        do {
            lock = try StateDirectoryLock(directory: directory.path)
        } catch {
            logger.critical("\(error)")
            return 2
        }
        defer { withExtendedLifetime(lock) {} }
        let store: MonitorStore
        let book: [String: BookEntry]
        do {
            store = try await MonitorStore.open(directory: directory.path)
            // The book, read once: only the domains this daemon watches (other shards' rows are not decoded).
            book = try await store.book(domains: configuration.shardDomains.map(\.name))
        } catch let error as StoreError where error.reason == .unwritable {
            // A start-up failure the operator must fix (an owner or mode), not one a restart cures: exit 2.
            logger.critical("\(UnwritableState.diagnose(database: error.path))")
            return 2
        } catch {
            // SQLite may fail otherwise on files it cannot write (a root-owned -shm): the same cause, the same answer.
            let database = (directory.path as NSString).appendingPathComponent(StoreSchema.fileName)
            if let unwritable = UnwritableState.find(database: database) {
                logger.critical("\(unwritable)", metadata: ["error": "\(error)"])
                return 2
            }
            logger.critical("cannot open the state database", metadata: ["error": "\(error)"])
            return 1
        }
        logger.notice(
            "starting",
            metadata: [
                "version": "\(MonitorVersion.current)", "config": "\(options.configPath)",
                "state_dir": "\(directory.path)", "domains": "\(configuration.shardDomains.count)",
                "shard": "\(configuration.shard.map { "\($0)" } ?? "-")",
            ])
        if let raisedLimit {
            logger.info(
                "raised the soft file descriptor limit to the hard one",
                metadata: ["from": "\(raisedLimit.from)", "to": "\(raisedLimit.to)"])
        }
        if let notice = PlaceholderDomains.notice(
            for: configuration.domains.map(\.name), configurationPath: options.configPath)
        {
            logger.warning("\(notice)")
        }
        let clock: @Sendable () -> Date = { Date() }
        let engine: CurlEngine
        do {
            var engineConfiguration = configuration.probeSettings.engineConfiguration
            engineConfiguration.descriptorReserve = LocalResources.margin
            engine = try CurlEngine(configuration: engineConfiguration)
        } catch {
            logger.critical("cannot start the HTTP engine", metadata: ["error": "\(error)"])
            return 1
        }
        // A cluster's journal, claims and outbox are the shared database's; the state directory keeps the rest.
        var cluster: (journal: PostgresJournal, pool: Task<Void, Never>)?
        if let settings = configuration.store {
            do {
                cluster = try await ClusterStartup.open(settings, configuration: configuration, logger: logger)
            } catch {
                logger.critical(
                    "cannot use the cluster's database",
                    metadata: ["database": "\(settings.location)", "error": "\(error)"])
                await engine.shutdown()
                try? store.close()
                return 1
            }
        }
        defer { cluster?.pool.cancel() }
        let journal: any Journal = cluster?.journal ?? store
        let conditions = (try? await journal.activeConditions()) ?? []
        let notifier = SystemdNotifier(environment: options.environment)
        let mode = cluster.map { _ in ClusterMode(leaseDuration: ClusterMode.leaseDuration(for: configuration)) }
        let executor = DaemonExecutor(
            core: DaemonCore(
                configuration: configuration, book: cluster == nil ? book : [:], conditions: conditions, now: clock(),
                cluster: mode),
            store: store, cluster: cluster?.journal, engine: engine, notifier: notifier, logger: logger, clock: clock)
        let services = DaemonServices(
            executor: executor, store: store, engine: engine, notifier: notifier, options: options, logger: logger,
            clock: clock)
        var exitCode: Int32 = 0
        do {
            try await services.run(listen: configuration.listen)
        } catch let error as EndpointBindError {
            // Nothing was checked and READY=1 was not sent: a start-up failure, like an invalid configuration.
            logger.critical("\(error.reason)")
            exitCode = 2
        } catch {
            logger.critical("stopped on an error", metadata: ["error": "\(error)"])
            exitCode = 1
        }
        try? notifier.send(.stopping)
        await engine.shutdown()
        do {
            try store.close()
        } catch {
            logger.warning("the state database did not close cleanly", metadata: ["error": "\(error)"])
        }
        logger.notice("stopped")
        JournalLogHandler.flush()
        return exitCode
    }
}
