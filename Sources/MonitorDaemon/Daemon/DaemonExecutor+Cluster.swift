import Foundation
import Logging
import MonitorCore
import MonitorEvaluation
import MonitorPostgres

/// A cluster's claims and registrations (`store: postgres:`), run as child tasks of the executor's loop.
extension DaemonExecutor {
    /// Claims due domains and answers `.claimed` (its next-due time on this host's clock) or `.claimFailed`.
    func claim(limit: Int, slack: Double, leaseFor: Double, in group: inout DiscardingTaskGroup) {
        guard let cluster else {
            send(.claimFailed(reason: "this daemon has no shared store", now: clock()))
            return
        }
        let clock = clock
        let logger = logger
        group.addTask { [self] in
            do {
                let answer = try await cluster.claim(limit: limit, slack: slack, leaseFor: leaseFor)
                for domain in answer.unreadable {
                    logger.error(
                        "the stored state of a domain could not be read; it is checked as if for the first time",
                        metadata: ["domain": "\(domain)"])
                }
                let now = clock()
                send(.claimed(answer.grants, nextDue: answer.nextIn.map { now.addingTimeInterval($0) }, now: now))
            } catch {
                send(.claimFailed(reason: "\(error)", now: clock()))
            }
        }
    }

    /// Adds `configuration`'s domains to the shared table (those it lacks, due at once) after a reload.
    func register(
        _ configuration: MonitorConfiguration, in cluster: PostgresJournal, group: inout DiscardingTaskGroup
    ) {
        let names = configuration.domains.map(\.name)
        let spread = ClusterMode.startupSpread(for: configuration)
        let logger = logger
        group.addTask {
            do { try await cluster.store.register(domains: names, spread: spread) } catch {
                logger.error(
                    "the reloaded domains could not be added to the database; reload again",
                    metadata: ["error": "\(error)"])
            }
        }
    }
}
