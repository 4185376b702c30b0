import AASA
import Foundation
import GRDB
import MonitorCore

/// The monitor's own conditions (`monitor.*`), kept as alert states of the empty domain so that `status`, the
/// status page and a restart see them, with their deliveries in the same transaction.
extension MonitorStore {
    /// The source a condition's alert state is filed under: where the trouble shows.
    static func source(of code: MonitorConditions.Code) -> FindingSource {
        switch code {
        case .cdnUnreachable: .cdn
        case .network, .resources, .store: .wellKnown
        }
    }

    /// Writes condition transitions and their deliveries in one transaction.
    public func record(
        conditions transitions: [MonitorConditions.Transition], deliveries: [OutboxInsert]
    )
        async throws
    {
        try await writer.write { db in
            for transition in transitions {
                switch transition {
                case .fired(let condition):
                    let state = AlertState.firing(
                        alert: FiringAlert(
                            since: condition.since, severity: .error, lastNotifiedAt: condition.since,
                            message: condition.message, detail: [:], recentFirings: [condition.since],
                            flapping: false))
                    try db.execute(
                        sql: """
                            INSERT OR REPLACE INTO alert_state (domain, code, source, subject, state_json)
                            VALUES ('', ?, ?, '', ?)
                            """,
                        arguments: [
                            condition.code.rawValue, Self.source(of: condition.code).rawValue,
                            try StoreCoding.encode(state),
                        ])
                case .resolved(let condition, _):
                    try db.execute(
                        sql: "DELETE FROM alert_state WHERE domain = '' AND code = ?",
                        arguments: [condition.code.rawValue])
                }
            }
            try Self.insertDeliveries(db, deliveries)
        }
    }

    /// The conditions active when the daemon last wrote, so a restart neither forgets nor re-announces them.
    public func activeConditions() async throws -> [MonitorConditions.Condition] {
        try await writer.read { db in
            try StoreReader.alertStates(db, domain: "").compactMap { stored in
                guard let code = MonitorConditions.Code(rawValue: stored.identity.code),
                    case .firing(let alert)? = try? StoreCoding.decode(
                        AlertState.self, from: stored.stateJSON, legacy: MonitorJSON.decoder())
                else { return nil }
                return MonitorConditions.Condition(code: code, since: alert.since, message: alert.message)
            }
        }
    }
}
