import AASA
import Foundation
import GRDB
import MonitorCore
import MonitorEvaluation

/// The monitor's own conditions (`monitor.*`), kept as alert states of the empty domain so that `status`, the
/// status page and a restart see them, with their deliveries in the same transaction.
extension MonitorStore {
    /// The source a condition's alert state is filed under: where the trouble shows.
    static func source(of code: FindingCode) -> FindingSource {
        code == .monitorCDNUnreachable ? .cdn : .wellKnown
    }

    /// Replaces the stored conditions (alert states of the empty domain) with `active`.
    static func writeConditions(_ db: Database, active: [MonitorConditions.Condition]) throws {
        try db.execute(sql: "DELETE FROM alert_state WHERE domain = ''")
        for condition in active {
            let state = AlertState.firing(
                alert: FiringAlert(
                    since: condition.since, severity: .error, lastNotifiedAt: condition.since,
                    message: condition.message, detail: [:], recentFirings: [condition.since], flapping: false))
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO alert_state (domain, code, source, subject, state_json)
                    VALUES ('', ?, ?, '', ?)
                    """,
                arguments: [
                    condition.code.id, Self.source(of: condition.code).rawValue, try StoreCoding.encode(state),
                ])
        }
    }

    /// The conditions active when the daemon last wrote, so a restart neither forgets nor re-announces them.
    package func activeConditions() async throws -> [MonitorConditions.Condition] {
        try await writer.read { db in
            try StoreReader.alertStates(db, domain: "").compactMap { stored in
                // A `monitor.*` code this version does not declare is another version's condition: not restored.
                let code = stored.identity.code
                guard code.isRegistered, code.family == .monitor,
                    case .firing(let alert)? = try? StoreCoding.decode(
                        AlertState.self, from: stored.stateJSON, legacy: MonitorJSON.decoder())
                else { return nil }
                return MonitorConditions.Condition(code: code, since: alert.since, message: alert.message)
            }
        }
    }
}
