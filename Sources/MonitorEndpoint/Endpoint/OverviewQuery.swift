import Foundation
import MonitorCore
import MonitorStore

/// The overview's filters and page, read from the query string its form sends (`GET /?verdict=…&q=…&offset=…`) and
/// written back into the links of its pager.
extension DomainListing.Query {
    /// `verdict` may repeat (a form's checkboxes) or list several, comma-separated (`verdict=origin_broken,cdn_stale`);
    /// `problems=1` stands for every verdict but `ready`; `q` is a piece of a name; `offset` and `limit` page.
    /// Anything unknown or malformed is ignored: a hand-edited link shows the first page rather than an error.
    package init(pageParameters: some Sequence<(key: Substring, value: Substring)>) {
        self.init()
        for (key, value) in pageParameters {
            // A form sends a space as `+`; no domain name holds one, so `+` is never meant literally.
            let value = value.replacingOccurrences(of: "+", with: " ")
            switch key {
            case "verdict":
                for part in value.split(separator: ",") {
                    if let verdict = ListedVerdict(rawValue: part.trimmingCharacters(in: .whitespaces)) {
                        verdicts.insert(verdict)
                    }
                }
            case "problems" where value == "1": verdicts.formUnion(ListedVerdict.allCases.filter(\.isProblem))
            case "q": nameContains = String(value.prefix(253))
            case "offset": offset = Int(value).map { max($0, 0) } ?? 0
            case "limit": limit = Int(value).map { min(max($0, 1), DomainListing.maximumLimit) } ?? limit
            default: continue
            }
        }
        if verdicts.count == ListedVerdict.allCases.count { verdicts = [] }
    }

    /// The query string of this query at `offset` (`?verdict=cdn_stale&q=shop&offset=200`), `?` alone for the
    /// first unfiltered page; verdicts in the listing's order, so equal queries make equal links.
    func pageLink(offset: Int) -> String {
        var parts: [String] = verdicts.sorted().map { "verdict=\($0.rawValue)" }
        let name = nameContains.trimmingCharacters(in: .whitespaces)
        if !name.isEmpty {
            parts.append("q=" + (name.addingPercentEncoding(withAllowedCharacters: Self.valueCharacters) ?? ""))
        }
        if limit != DomainListing.defaultLimit { parts.append("limit=\(limit)") }
        if offset > 0 { parts.append("offset=\(offset)") }
        return "?" + parts.joined(separator: "&")
    }

    /// Unreserved characters only: everything else in a value is percent-encoded.
    private static let valueCharacters = CharacterSet(
        charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")

    /// Whether the query filters at all.
    var isFiltered: Bool {
        !verdicts.isEmpty || !nameContains.trimmingCharacters(in: .whitespaces).isEmpty
    }
}
