import Foundation
import GRDB
import MonitorCore
import MonitorEvaluation

extension StoreReader {
    /// The book of `domains` as the journal left it: each domain's state, alert states and open history run. The
    /// daemon reads it once at start (and a reload, for domains listed again); a domain never checked has no entry.
    ///
    /// A state this version cannot read throws (the database is damaged, and the daemon must not start over a
    /// history it cannot see); an alert state it cannot read starts over, as it would at the domain's next check.
    package func book(domains: [String]) async throws -> [String: BookEntry] {
        let path = path
        let wanted = Set(domains)
        // A few domains (a reload listing some again) are read by their keys in one statement, not by a scan of
        // every row; a whole book is one scan.
        let keyed = wanted.count <= Self.keyedReads ? try Self.jsonArray(Array(wanted)) : nil
        return try await database.read { db in
            var book: [String: BookEntry] = [:]
            book.reserveCapacity(wanted.count)
            let rows =
                try keyed.map {
                    try Row.fetchCursor(
                        db, sql: Self.entrySQL + " WHERE domain_state.domain IN (SELECT value FROM json_each(?))",
                        arguments: [$0])
                } ?? Row.fetchCursor(db, sql: Self.entrySQL)
            while let row = try rows.next() {
                let domain: String = row["domain"]
                guard wanted.contains(domain) else { continue }
                book[domain] = try Self.entry(row, domain: domain, path: path)
            }
            let alerts =
                try keyed.map { try Self.alertStates(db, domainsJSON: $0) } ?? Self.alertStates(db, domain: nil)
            for stored in alerts where wanted.contains(stored.identity.domain) {
                guard let state = Self.alertState(stored) else { continue }
                book[stored.identity.domain, default: BookEntry()].alerts[stored.identity] = state
            }
            return book
        }
    }

    /// One domain's entry, read by its keys (a store used without the daemon's book records one check at a time;
    /// reading the whole book for each was quadratic in the number of domains).
    package func entry(of domain: String) async throws -> BookEntry? {
        let path = path
        return try await database.read { db in
            var entry = try Row.fetchOne(
                db.cachedStatement(sql: Self.entrySQL + " WHERE domain_state.domain = ?"), arguments: [domain]
            ).map { try Self.entry($0, domain: domain, path: path) }
            for stored in try Self.alertStates(db, domain: domain) {
                guard let state = Self.alertState(stored) else { continue }
                entry = entry ?? BookEntry()
                entry?.alerts[stored.identity] = state
            }
            return entry
        }
    }

    /// The previous origin meaning's canonical text a check of `report` needs for its diff, read only when the
    /// origin's meaning changed (`DomainReducer.documentNeeded`).
    package func previousOriginDocument(entry: BookEntry?, report: DomainReport) async throws -> String? {
        guard let hash = DomainReducer.documentNeeded(entry: entry, report: report) else { return nil }
        return try await document(hash: hash)
    }

    /// Up to how many domains `book(domains:)` and `domainStates(domains:)` read by their keys rather than by a scan.
    package static let keyedReads = 64

    private static let entrySQL = """
        SELECT domain_state.domain, state_json, run_id, runs.key AS run_key FROM domain_state
        LEFT JOIN runs ON runs.id = domain_state.run_id
        """

    private static func entry(_ row: Row, domain: String, path: String) throws -> BookEntry {
        var entry = BookEntry()
        entry.state = try decode(DomainState.self, row["state_json"], what: "state of \(domain)", path: path)
        if let id: Int64 = row["run_id"], let key = StoredHex.runKey.text(row["run_key"]) {
            entry.run = RunMark(id: id, key: key)
        }
        return entry
    }

    private static func alertState(_ stored: StoredAlertState) -> AlertState? {
        try? StoreCoding.decode(AlertState.self, from: stored.stateJSON, legacy: MonitorJSON.decoder())
    }
}
