import Foundation
import GRDB
import MonitorCore

extension StoreReader {
    /// The book of `domains` as the journal left it: each domain's state, alert states and open history run. The
    /// daemon reads it once at start; a domain never checked has no entry.
    ///
    /// A state this version cannot read throws (the database is damaged, and the daemon must not start over a
    /// history it cannot see); an alert state it cannot read starts over, as it would at the domain's next check.
    public func book(domains: [String]) async throws -> [String: BookEntry] {
        let path = path
        let wanted = Set(domains)
        return try await database.read { db in
            var book: [String: BookEntry] = [:]
            book.reserveCapacity(wanted.count)
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT domain_state.domain, state_json, run_id, runs.key AS run_key FROM domain_state
                    LEFT JOIN runs ON runs.id = domain_state.run_id
                    """)
            while let row = try rows.next() {
                let domain: String = row["domain"]
                guard wanted.contains(domain) else { continue }
                var entry = BookEntry()
                entry.state = try Self.decode(
                    DomainState.self, row["state_json"], what: "state of \(domain)", path: path)
                if let id: Int64 = row["run_id"], let key = StoredHex.runKey.text(row["run_key"]) {
                    entry.run = RunMark(id: id, key: key)
                }
                book[domain] = entry
            }
            for stored in try Self.alertStates(db, domain: nil) where wanted.contains(stored.identity.domain) {
                guard
                    let state = try? StoreCoding.decode(
                        AlertState.self, from: stored.stateJSON, legacy: MonitorJSON.decoder())
                else { continue }
                book[stored.identity.domain, default: BookEntry()].alerts[stored.identity] = state
            }
            return book
        }
    }
}
