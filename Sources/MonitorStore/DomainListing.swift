import Foundation
import GRDB
import MonitorCore
import MonitorEvaluation

/// The configured domains as a list to page through: filtered by verdict and by name, problems first, one page at a
/// time. The page at `/`, `status` without a domain and `GET /api/v1/domains` read it.
///
/// It reads names and verdicts only, never a domain's whole state: a domain's verdict is its open history run's
/// (`domain_state.run_id`), so at 100,000 domains a page costs one query for the counts and one with `LIMIT` for
/// the rows, and no state is decoded. A caller that shows more of the page's rows reads them by name afterwards
/// (`StoreReader.domainStates(named:)`).
///
/// ```swift
/// let listing = DomainListing(store: reader, configured: names)
/// let page = try await listing.page(DomainListing.Query(verdicts: [.originBroken], limit: 50))
/// for row in page.rows { print(row.verdict.rawValue, row.domain) }
/// ```
package struct DomainListing: Sendable {
    /// The rows a page holds unless asked otherwise, and the most it may hold.
    package static let defaultLimit = 200
    package static let maximumLimit = 1_000

    let store: StoreReader
    /// The domains to list, `nil` for every domain the store holds a state of.
    let configured: [String]?

    /// Lists `configured` (the configuration's domains; a name the store has no state of is `notChecked`), or
    /// every domain with a stored state when `nil`.
    package init(store: StoreReader, configured: [String]?) {
        self.store = store
        self.configured = configured
    }

    /// Which domains, and which page of them.
    package struct Query: Sendable, Hashable {
        /// Only domains with one of these verdicts; empty for every verdict.
        package var verdicts: Set<ListedVerdict>
        /// Only domains whose name contains this text (ignoring case); empty for every name.
        package var nameContains: String
        /// Rows to skip; ignored when `after` is set.
        package var offset: Int
        /// The most rows to return, 1 to `DomainListing.maximumLimit`.
        package var limit: Int
        /// Start after this row (a `Page.next` of the same filters) rather than at `offset`.
        package var after: Cursor?

        package init(
            verdicts: Set<ListedVerdict> = [], nameContains: String = "", offset: Int = 0,
            limit: Int = DomainListing.defaultLimit, after: Cursor? = nil
        ) {
            self.verdicts = verdicts
            self.nameContains = nameContains
            self.offset = offset
            self.limit = limit
            self.after = after
        }

        /// The name filter as stored names spell it: trimmed, lower case, a U-label as its A-label.
        var normalizedName: String {
            let trimmed = nameContains.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
            guard !trimmed.allSatisfy(\.isASCII) else { return trimmed }
            return (try? DomainName.normalize(trimmed)) ?? trimmed
        }
    }

    /// A place in the listing's order: after the row with this verdict and name.
    ///
    /// Its text (`cdn_stale:example.com`) is what a link or an API client hands back; it stays valid when rows
    /// come and go, unlike an offset.
    package struct Cursor: Sendable, Hashable, LosslessStringConvertible {
        package var verdict: ListedVerdict
        package var domain: String

        package init(verdict: ListedVerdict, domain: String) {
            self.verdict = verdict
            self.domain = domain
        }

        package init?(_ description: String) {
            guard let colon = description.firstIndex(of: ":"),
                let verdict = ListedVerdict(rawValue: String(description[..<colon]))
            else { return nil }
            self.init(verdict: verdict, domain: String(description[description.index(after: colon)...]))
        }

        package var description: String { "\(verdict.rawValue):\(domain)" }
    }

    /// One listed domain.
    package struct Row: Sendable, Hashable {
        package var domain: String
        package var verdict: ListedVerdict

        package init(domain: String, verdict: ListedVerdict) {
            self.domain = domain
            self.verdict = verdict
        }
    }

    /// One page of the listing, with what a pager and a filter form need to know about the rest.
    package struct Page: Sendable, Hashable {
        /// Problems first: worst verdict first, then by name.
        package var rows: [Row]
        /// The domains matching both filters, on every page.
        package var total: Int
        /// The domains matching the name filter, by verdict (every verdict, whatever the verdict filter), so a form
        /// can say how many each choice would list. A verdict no domain has is absent.
        package var counts: [ListedVerdict: Int]
        /// How many matching domains come before the first row.
        package var offset: Int
        /// Where the next page starts, `nil` on the last page.
        package var next: Cursor?

        package init(rows: [Row], total: Int, counts: [ListedVerdict: Int], offset: Int, next: Cursor?) {
            self.rows = rows
            self.total = total
            self.counts = counts
            self.offset = offset
            self.next = next
        }

        /// The number of domains matching the name filter, whatever their verdict.
        package var countAll: Int { counts.values.reduce(0, +) }
    }

    /// One page of the domains that match `query`.
    package func page(_ query: Query) async throws -> Page {
        let limit = min(max(query.limit, 1), Self.maximumLimit)
        let offset = query.after == nil ? max(query.offset, 0) : 0
        let source = try source()
        let name = query.normalizedName
        let wanted = query.verdicts.isEmpty ? Set(ListedVerdict.allCases) : query.verdicts
        let after = query.after
        return try await store.database.read { db in
            // Every matching domain with its verdict and rank; the counts and the page both read from it.
            let ranked = """
                WITH listed(domain) AS (\(source.sql)),
                ranked AS (
                  SELECT listed.domain AS domain, \(Self.verdictColumn) AS verdict
                  FROM listed LEFT JOIN domain_state ON domain_state.domain = listed.domain
                  LEFT JOIN runs ON runs.id = domain_state.run_id
                  WHERE ?2 = '' OR instr(listed.domain, ?2) > 0),
                ordered AS (SELECT domain, verdict, \(Self.rankColumn) AS rank FROM ranked)
                """
            let afterRank = after.map { $0.verdict.rank } ?? -1
            let afterName = after?.domain ?? ""
            var counts: [ListedVerdict: Int] = [:]
            var before = 0
            for row in try GRDB.Row.fetchAll(
                db,
                sql: ranked + """
                    SELECT verdict, count(*) AS n,
                      count(*) FILTER (WHERE rank < ?3 OR (rank = ?3 AND domain <= ?4)) AS before
                    FROM ordered GROUP BY verdict
                    """,
                arguments: [source.argument, name, afterRank, afterName])
            {
                let verdict = ListedVerdict(stored: row["verdict"])
                counts[verdict, default: 0] += row["n"] as Int
                if wanted.contains(verdict) { before += row["before"] as Int }
            }
            let inList = wanted.sorted().map { "'\($0.rawValue)'" }.joined(separator: ", ")
            let rows = try GRDB.Row.fetchAll(
                db,
                sql: ranked + """
                    SELECT domain, verdict FROM ordered
                    WHERE verdict IN (\(inList)) AND (rank > ?3 OR (rank = ?3 AND domain > ?4))
                    ORDER BY rank, domain LIMIT ?5 OFFSET ?6
                    """,
                arguments: [source.argument, name, afterRank, afterName, limit + 1, offset]
            ).map { Row(domain: $0["domain"], verdict: ListedVerdict(stored: $0["verdict"])) }
            let total = wanted.reduce(0) { $0 + counts[$1, default: 0] }
            let shown = Array(rows.prefix(limit))
            return Page(
                rows: shown, total: total, counts: counts, offset: after == nil ? offset : before,
                next: rows.count > limit ? shown.last.map { Cursor(verdict: $0.verdict, domain: $0.domain) } : nil)
        }
    }

    /// The domains listed: the configured names as one JSON array bound to `?1` (one statement, whatever their
    /// number), or the stored states' names.
    private func source() throws -> (sql: String, argument: String) {
        guard let configured else { return ("SELECT domain FROM domain_state WHERE ?1 = ''", "") }
        return ("SELECT value FROM json_each(?1)", try StoreReader.jsonArray(configured))
    }

    /// A domain without a state was never checked; one whose run is gone (never seen in practice) is `unknown`.
    static let verdictColumn = """
        CASE WHEN domain_state.domain IS NULL THEN '\(ListedVerdict.notChecked.rawValue)'
        ELSE coalesce(runs.verdict, '\(ListedVerdict.unknown.rawValue)') END
        """

    /// `ListedVerdict.rank` in SQL; a verdict this version does not know ranks as `unknown`.
    static let rankColumn =
        "CASE verdict "
        + ListedVerdict.allCases.map { "WHEN '\($0.rawValue)' THEN \($0.rank) " }.joined()
        + "ELSE \(ListedVerdict.unknown.rank) END"
}

/// A domain's verdict in a listing, or that it has none yet; ordered worst first.
package enum ListedVerdict: String, Sendable, Hashable, CaseIterable, Comparable, Codable {
    case originBroken = "origin_broken"
    case expectationFailed = "expectation_failed"
    case cdnMissing = "cdn_missing"
    case cdnStale = "cdn_stale"
    case unknown
    /// Configured, but no check has completed yet.
    case notChecked = "not_checked"
    case ready

    package init(_ verdict: Verdict?) {
        self = verdict.flatMap { ListedVerdict(rawValue: $0.rawValue) } ?? .notChecked
    }

    /// A stored verdict; one this version does not know is `unknown`.
    init(stored: String) {
        self = ListedVerdict(rawValue: stored) ?? .unknown
    }

    /// The verdict, `nil` for `notChecked`.
    package var verdict: Verdict? { Verdict(rawValue: rawValue) }

    /// Whether a person may have to look: every verdict but `ready`.
    package var isProblem: Bool { self != .ready }

    /// Its place in the order, worst first.
    package var rank: Int { Self.allCases.firstIndex(of: self) ?? 0 }

    package static func < (lhs: ListedVerdict, rhs: ListedVerdict) -> Bool { lhs.rank < rhs.rank }
}
