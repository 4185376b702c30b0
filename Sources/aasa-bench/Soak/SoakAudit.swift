import AASA
import Foundation
import GRDB
import MonitorCore
import MonitorDaemon
import MonitorEvaluation
import MonitorStore

/// What the daemon journaled against what the receiver got.
///
/// - lost: an outbox row that is not delivered at the end, or is marked delivered but never reached the receiver;
/// - doubled: a delivery id the receiver accepted twice (at-least-once delivery across SIGKILL can resend the one
///   in flight; the receiver de-duplicates on `webhook-id`, so these are counted apart from losses);
/// - invented: a delivery id the receiver got that the outbox never held;
/// - out of order: an `alert.resolved` that did not follow an `alert.firing` of the same alert, in event time;
/// - final state: an alert firing (error) whose last delivered event is not its firing, or a resolved one whose
///   last delivered event is a firing.
struct SoakAudit {
    var integrity: [String]
    var journaled = 0
    var delivered = 0
    var lost: [String] = []
    var doubled: [String] = []
    var invented: [String] = []
    var outOfOrder: [String] = []
    var finalState: [String] = []
    var kinds: [String: Int] = [:]

    static func database(_ state: String) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(5)
        return try DatabaseQueue(path: state + "/" + MonitorStore.databaseFileName, configuration: configuration)
    }

    /// Outbox rows not delivered yet (pending, or dead: a dead one never will be).
    static func undelivered(state: String) async throws -> Int {
        guard let queue = try? database(state) else { return 1 }
        defer { try? queue.close() }
        return try await queue.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM outbox WHERE state = 'pending'") ?? 0
        }
    }

    static func audit(state: String, received: [SoakWorld.Delivery]) async throws -> SoakAudit {
        let reader = try StoreReader.openReadOnly(directory: state)
        var audit = SoakAudit(integrity: try await reader.integrityCheck())
        let queue = try database(state)
        defer { try? queue.close() }
        let rows = try await queue.read { db in
            try Row.fetchAll(db, sql: "SELECT delivery_id, state FROM outbox").map {
                (id: $0["delivery_id"] as String, state: $0["state"] as String)
            }
        }
        audit.journaled = rows.count
        var timesReceived: [String: Int] = [:]
        for delivery in received { timesReceived[delivery.id, default: 0] += 1 }
        audit.delivered = timesReceived.count
        let journaledIDs = Set(rows.map(\.id))
        for row in rows where row.state != "delivered" || timesReceived[row.id] == nil {
            audit.lost.append("\(row.id) (\(row.state), received \(timesReceived[row.id] ?? 0) times)")
        }
        audit.doubled = timesReceived.filter { $0.value > 1 }.map { "\($0.key) ×\($0.value)" }.sorted()
        audit.invented = timesReceived.keys.filter { !journaledIDs.contains($0) }.sorted()
        var firstOfID: [String: SoakWorld.Delivery] = [:]
        var unique: [SoakWorld.Delivery] = []
        for delivery in received where firstOfID[delivery.id] == nil {
            firstOfID[delivery.id] = delivery
            unique.append(delivery)
            audit.kinds[delivery.type, default: 0] += 1
        }
        // In the order the events happened (the body's `timestamp`), not the order they arrived: a retried event
        // can arrive after a newer one, and receivers order by `timestamp`. Same second: arrival order.
        unique = unique.enumerated().sorted { ($0.element.occurredAt, $0.offset) < ($1.element.occurredAt, $1.offset) }
            .map(\.element)
        var last: [String: String] = [:]
        for delivery in unique where delivery.type.hasPrefix("alert.") && !delivery.reminder {
            let key = [delivery.domain, delivery.code, delivery.source, delivery.subject].joined(separator: "|")
            if delivery.type == "alert.resolved", last[key] != "alert.firing" {
                audit.outOfOrder.append("\(key): resolved after \(last[key] ?? "nothing")")
            }
            last[key] = delivery.type
        }
        for alert in try await reader.alertStates() {
            guard
                let state = try? StoreCoding.decode(
                    AlertState.self, from: alert.stateJSON, legacy: MonitorJSON.decoder())
            else { continue }
            let identity = alert.identity
            let key = [identity.domain, identity.code.id, identity.source.rawValue, identity.subject].joined(
                separator: "|")
            switch state {
            case .firing(let firing), .resolving(let firing, _, _):
                if firing.severity == .error, last[key] != "alert.firing" {
                    audit.finalState.append("\(key) is firing; its last delivered event is \(last[key] ?? "none")")
                }
            case .resolved, .pending:
                if last[key] == "alert.firing" {
                    audit.finalState.append("\(key) is \(state.name); its last delivered event is its firing")
                }
            }
        }
        return audit
    }
}
