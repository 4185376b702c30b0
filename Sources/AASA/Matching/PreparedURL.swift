/// The texts of one URL in the forms rules ask for, each computed at most once per decision.
///
/// A rule may want a part encoded or decoded (`percentEncoded`) and with case kept or folded (`caseSensitive`),
/// so there are up to four variants per part; most documents need one.
struct PreparedURL {
    /// How a rule wants the text: decoded for `percentEncoded: false`, folded for `caseSensitive: false`.
    struct Form: Hashable {
        var decodes: Bool
        var folds: Bool

        var slot: Int { (decodes ? 2 : 0) + (folds ? 1 : 0) }
    }

    /// A query item as split from the encoded query: `name=value`, `value` empty when there is no `=`.
    struct QueryItem {
        var name: String
        var value: String
    }

    let url: MatchableURL
    private let rawItems: [QueryItem]
    private var paths: [[UInt32]?] = Array(repeating: nil, count: 4)
    private var queries: [[UInt32]?] = Array(repeating: nil, count: 4)
    private var fragments: [[UInt32]?] = Array(repeating: nil, count: 4)
    private var items: [[(name: String, value: [UInt32])]?] = Array(repeating: nil, count: 4)

    init(_ url: MatchableURL) {
        self.url = url
        rawItems = Self.split(query: url.query ?? "")
    }

    /// Path rules P3 and P6: an empty path is `/`, and one trailing `/` is insignificant (unless the path is `/`).
    static func normalizePath(_ path: [UInt32]) -> [UInt32] {
        let slash = UInt32(UInt8(ascii: "/"))
        if path.isEmpty { return [slash] }
        if path.count > 1 && path.last == slash { return Array(path.dropLast()) }
        return path
    }

    /// Splits on `&`, then each item at its first `=`; `+` stays `+` (Apple never turns it into a space).
    static func split(query: String) -> [QueryItem] {
        query.split(separator: "&", omittingEmptySubsequences: true).map { item in
            guard let equals = item.firstIndex(of: "=") else { return QueryItem(name: String(item), value: "") }
            return QueryItem(name: String(item[..<equals]), value: String(item[item.index(after: equals)...]))
        }
    }

    mutating func path(_ form: Form) -> [UInt32] {
        if let cached = paths[form.slot] { return cached }
        // Normalized after decoding: with `percentEncoded: false` Apple compares the decoded path, where `%2F` is a
        // `/` like any other, so a trailing `%2F` is as insignificant as a trailing `/` (P3, see `URLMatcher`).
        let text = Self.normalizePath(Self.scalars(of: url.path, form))
        paths[form.slot] = text
        return text
    }

    /// The whole query string; a URL without one behaves as `""`.
    mutating func query(_ form: Form) -> [UInt32] {
        if let cached = queries[form.slot] { return cached }
        let text = Self.scalars(of: url.query ?? "", form)
        queries[form.slot] = text
        return text
    }

    /// The fragment; a URL without one behaves as `""`.
    mutating func fragment(_ form: Form) -> [UInt32] {
        if let cached = fragments[form.slot] { return cached }
        let text = Self.scalars(of: url.fragment ?? "", form)
        fragments[form.slot] = text
        return text
    }

    /// Query items with their values in `form`. Names are decoded along with values when `form` decodes, but
    /// never case-folded: whether Apple folds item names is not known (no documentation, no observation), so
    /// names compare exactly.
    mutating func queryItems(_ form: Form) -> [(name: String, value: [UInt32])] {
        if let cached = items[form.slot] { return cached }
        let prepared = rawItems.map { item in
            (
                name: form.decodes ? PercentDecoding.decode(item.name) : item.name,
                value: Self.scalars(of: item.value, form)
            )
        }
        items[form.slot] = prepared
        return prepared
    }

    private static func scalars(of text: String, _ form: Form) -> [UInt32] {
        let source = form.decodes ? PercentDecoding.decode(text) : text
        let scalars = source.unicodeScalars.map(\.value)
        return form.folds ? CaseFolding.fold(scalars) : scalars
    }
}
