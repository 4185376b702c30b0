import Foundation
import GRDB
import MonitorCore
import MonitorEvaluation

/// What the status page reads beyond `status`: one domain's state and its propagation measurements. Kept here so a
/// change of the history tables stays inside the store.
extension StoreReader {
    /// The current state of one domain, `nil` before its first check.
    package func domainState(_ domain: String) async throws -> DomainState? {
        let path = path
        return try await database.read { db in
            guard
                let data = try Data.fetchOne(
                    db, sql: "SELECT state_json FROM domain_state WHERE domain = ?", arguments: [domain])
            else { return nil }
            return try Self.decode(DomainState.self, data, what: "state of \(domain)", path: path)
        }
    }

    /// Every measured propagation of `domain` in the retained history (at most the newest `limit`), oldest first:
    /// when Apple caught up, and how long it took.
    package func propagations(domain: String, limit: Int = 1_000) async throws -> [Propagation] {
        try await database.read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT at, detail_json FROM timeline WHERE domain = ? AND kind = ?
                    ORDER BY at DESC, id DESC LIMIT ?
                    """,
                arguments: [domain, TimelineEvent.Kind.cdnPropagated.rawValue, limit])
            return rows.reversed().compactMap { row -> Propagation? in
                // A detail this version cannot read leaves a gap in the chart rather than failing the page.
                guard let detail = try? StoreCoding.decode(FindingDetail.self, from: row["detail_json"]) else {
                    return nil
                }
                let seconds: Double? =
                    switch detail["delay"] {
                    case .double(let value)?: value
                    case .int(let value)?: Double(value)
                    default: nil
                    }
                guard let seconds, seconds.isFinite, seconds >= 0 else { return nil }
                return Propagation(at: row.date("at"), delay: seconds)
            }
        }
    }
}

/// One origin change reaching Apple's CDN: when the monitor saw Apple serve it, and the delay since the change.
package struct Propagation: Sendable, Hashable {
    package var at: Date
    /// Seconds (to within the check interval).
    package var delay: Double

    package init(at: Date, delay: Double) {
        self.at = at
        self.delay = delay
    }
}
