import Foundation
import Logging
import MonitorCheck
import MonitorCore
import MonitorEvaluation
import MonitorStore
import ServiceLifecycle
import Synchronization
import UnixSignals

/// Reloads the configuration on SIGHUP: a valid new file is put in force for the next checks, an invalid one is
/// reported (every problem with file, line and key) and the old one kept.
///
/// Loading has a deadline (`deadline`) and gives way to shutdown: files are opened non-blocking and must be
/// regular, so a load cannot hang on a FIFO, but should one stall anyway (a hung network file system), the old
/// configuration stays, the reason is logged and SIGTERM still ends the daemon.
struct ReloadService: Service {
    let executor: DaemonExecutor
    /// Where the entries of domains added back by a reload are read from (the book drops removed domains).
    let store: MonitorStore
    let path: String
    let environment: [String: String]
    let notifier: SystemdNotifier
    let logger: Logger
    let clock: @Sendable () -> Date
    /// The longest a reload may take before it is abandoned.
    var deadline: Duration = .seconds(10)

    func run() async throws {
        let signals = await UnixSignalsSequence(trapping: .sighup)
        for await _ in signals.cancelOnGracefulShutdown() {
            try? notifier.send(.reloading)
            // A reload put in force answers READY=1 from the core, once it took the configuration; one that failed
            // answers here, the old configuration staying in force.
            if !(await reload()) { try? notifier.send(.ready, .status(await executor.statusLine())) }
        }
    }

    /// Loads the file and hands it to the core; false when the previous configuration stays in force.
    @discardableResult
    func reload() async -> Bool {
        let path = path
        let environment = environment
        let outcome = await ReloadDeadline.run(within: deadline) {
            Result { () throws(ConfigurationFileError) in
                try ConfigurationFile.load(path: path, environment: environment)
            }
        }
        let configuration: MonitorConfiguration
        switch outcome {
        case .finished(.success(let loaded)):
            configuration = loaded
        case .finished(.failure(let error)):
            logger.error(
                "configuration not reloaded, the previous one stays in force",
                metadata: ["file": "\(path)", "problems": "\(error)"])
            return false
        case .timedOut:
            logger.error(
                "configuration not reloaded, the previous one stays in force",
                metadata: [
                    "file": "\(path)",
                    "problems": "reading it took longer than \(deadline); is a file on a hung mount?",
                ])
            return false
        case .interrupted:
            logger.notice("reload abandoned at shutdown", metadata: ["file": "\(path)"])
            return false
        }
        let previous = await executor.configuration
        if previous.listen != configuration.listen || previous.stateDirectory != configuration.stateDirectory {
            logger.warning("listen and state_dir changes take effect at the next restart")
        }
        // A domain removed by an earlier reload and listed again continues from what the journal holds of it: its
        // state, alert states and open run (else it would start over as never checked, beside its stored alerts).
        // One whose check committed after its removal continues from that commit instead (the core keeps it).
        let watched = Set(previous.domains.map(\.name))
        let added = configuration.restrictedToShard().domains.map(\.name).filter { !watched.contains($0) }
        var stored: [String: BookEntry] = [:]
        if !added.isEmpty {
            do {
                stored = try await store.book(domains: added)
            } catch {
                logger.error(
                    "the stored state of the added domains could not be read; they start as never checked",
                    metadata: ["error": "\(error)"])
            }
        }
        executor.send(.reload(configuration, stored: stored, now: clock()))
        logger.notice(
            "configuration reloaded",
            metadata: [
                "file": "\(path)", "domains": "\(configuration.shardDomains.count)",
                "shard": "\(configuration.shard.map { "\($0)" } ?? "-")",
            ])
        return true
    }
}

extension ReloadService: CustomStringConvertible {
    /// A short name for lifecycle logs, which would otherwise print every property (the environment included).
    var description: String { "reload" }
}

/// Runs blocking work on its own thread and waits for it at most a deadline, or until shutdown or cancellation.
enum ReloadDeadline {
    enum Outcome<Value: Sendable>: Sendable {
        case finished(Value)
        case timedOut
        case interrupted
    }

    /// The work's value, or why it was not waited for. Work that never returns keeps its thread; the daemon goes
    /// on (and exits) without it.
    static func run<Value: Sendable>(
        within deadline: Duration, _ work: @escaping @Sendable () -> Value
    ) async -> Outcome<Value> {
        // The first outcome wins; one that comes before the continuation exists waits in `early`.
        typealias Slot = (continuation: CheckedContinuation<Outcome<Value>, Never>?, early: Outcome<Value>?)
        let slot = Mutex<Slot>((nil, nil))
        let resume: @Sendable (Outcome<Value>) -> Void = { outcome in
            slot.withLock { slot in
                if let continuation = slot.continuation {
                    continuation.resume(returning: outcome)
                    slot.continuation = nil
                    slot.early = .interrupted
                } else if slot.early == nil {
                    slot.early = outcome
                }
            }
        }
        let timer = Task {
            try? await Task.sleep(for: deadline)
            resume(.timedOut)
        }
        defer { timer.cancel() }
        return await withGracefulShutdownHandler {
            await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    let early = slot.withLock { slot in
                        if slot.early == nil { slot.continuation = continuation }
                        return slot.early
                    }
                    if let early {
                        continuation.resume(returning: early)
                    } else {
                        Thread.detachNewThread { resume(.finished(work())) }
                    }
                }
            } onCancel: {
                resume(.interrupted)
            }
        } onGracefulShutdown: {
            resume(.interrupted)
        }
    }
}
