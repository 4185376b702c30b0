import Foundation
import Logging
import ServiceLifecycle
import UnixSignals

/// Reloads the configuration on SIGHUP: a valid new file is put in force for the next checks, an invalid one is
/// reported (every problem with file, line and key) and the old one kept.
struct ReloadService: Service {
    let runtime: DaemonRuntime
    let path: String
    let environment: [String: String]
    let notifier: SystemdNotifier
    let logger: Logger
    let clock: @Sendable () -> Date

    func run() async throws {
        let signals = await UnixSignalsSequence(trapping: .sighup)
        for await _ in signals.cancelOnGracefulShutdown() {
            try? notifier.send(.reloading)
            await reload()
            try? notifier.send(.ready, .status(await runtime.statusLine()))
        }
    }

    func reload() async {
        let configuration: MonitorConfiguration
        do {
            configuration = try ConfigurationFile.load(path: path, environment: environment)
        } catch {
            logger.error(
                "configuration not reloaded, the previous one stays in force",
                metadata: ["file": "\(path)", "problems": "\(error)"])
            return
        }
        let previous = await runtime.configuration
        if previous.listen != configuration.listen || previous.stateDirectory != configuration.stateDirectory {
            logger.warning("listen and state_dir changes take effect at the next restart")
        }
        await runtime.reload(configuration, now: clock())
        logger.notice(
            "configuration reloaded", metadata: ["file": "\(path)", "domains": "\(configuration.domains.count)"])
    }
}

extension ReloadService: CustomStringConvertible {
    /// A short name for lifecycle logs, which would otherwise print every property (the environment included).
    var description: String { "reload" }
}
