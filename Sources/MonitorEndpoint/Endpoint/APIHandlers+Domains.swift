import Foundation
import Hummingbird
import MonitorCore
import MonitorStatus
import MonitorStore

/// `GET /api/v1/domains`: the configured domains through `DomainListing`, the reader the page and `status` page
/// with, so all three list and count alike.
extension APIHandlers {
    /// The rows a page holds unless asked otherwise.
    static let domainsDefaultLimit = 100

    func domains(_ request: Request, api: APISources) async throws(APIError) -> Response {
        var query = DomainListing.Query(
            limit: try Self.integer(
                request, "limit", default: Self.domainsDefaultLimit, range: 1...DomainListing.maximumLimit))
        for value in request.uri.queryParameters[values: "verdict"] {
            for part in value.split(separator: ",", omittingEmptySubsequences: false) {
                guard let verdict = ListedVerdict(rawValue: String(part)) else {
                    throw APIError.parameter(
                        "verdict",
                        "'\(part.prefix(40))' is not a verdict ("
                            + ListedVerdict.allCases.map(\.rawValue).joined(separator: ", ") + ")")
                }
                query.verdicts.insert(verdict)
            }
        }
        if let name = try Self.query(request, "q") {
            guard name.utf8.count <= 253 else { throw APIError.parameter("q", "longer than 253 bytes") }
            query.nameContains = name
        }
        if let text = try Self.query(request, "cursor") {
            guard request.uri.queryParameters["offset"] == nil else {
                throw APIError.parameter("cursor", "give cursor or offset, not both")
            }
            guard let cursor = DomainListing.Cursor(text) else {
                throw APIError.parameter("cursor", "not a cursor this API gave (next_cursor of an earlier page)")
            }
            query.after = cursor
        }
        query.offset = try Self.integer(request, "offset", default: 0, range: 0...Int(Int32.max))
        let listing = DomainListing(store: api.store.reader, configured: await api.configured())
        let (page, states) = try await read("domains") {
            let page = try await listing.page(query)
            return (page, try await api.store.reader.domainStates(named: page.rows.map(\.domain)))
        }
        return try Self.json(.ok, DomainPage(page: page, states: states, limit: query.limit))
    }

    /// `{"domains": [{domain, verdict, since, last_check}], "total", "counts", "offset", "limit", "next_cursor"}`.
    struct DomainPage: Encodable {
        var domains: [Entry]
        var total: Int
        var counts: [String: Int]
        var offset: Int
        var limit: Int
        @NullWhenAbsent var nextCursor: String?

        init(page: DomainListing.Page, states: [String: DomainState], limit: Int) {
            domains = page.rows.map { row in
                let state = states[row.domain]
                return Entry(
                    domain: row.domain, verdict: row.verdict.rawValue, since: state?.verdictSince,
                    lastCheck: state?.lastCheck)
            }
            total = page.total
            counts = Dictionary(uniqueKeysWithValues: page.counts.map { ($0.key.rawValue, $0.value) })
            offset = page.offset
            self.limit = limit
            nextCursor = page.next?.description
        }

        enum CodingKeys: String, CodingKey {
            case domains, total, counts, offset, limit
            case nextCursor = "next_cursor"
        }
    }

    /// One listed domain; `verdict` is `not_checked` (and the times `null`) before its first check.
    struct Entry: Encodable {
        var domain: String
        var verdict: String
        @RFC3339Time var since: Date?
        @RFC3339Time var lastCheck: Date?

        enum CodingKeys: String, CodingKey {
            case domain, verdict, since
            case lastCheck = "last_check"
        }
    }
}
