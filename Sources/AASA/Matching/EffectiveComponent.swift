/// A component with every key resolved: the component's own value, else `details[].defaults`, else
/// `applinks.defaults`, else Apple's built-in default (`*` for `/ ? #`, not excluded, case-sensitive, encoded).
public struct EffectiveComponent: Sendable, Hashable, Codable {
    public var path: String
    public var query: QueryRule
    public var fragment: String
    public var exclude: Bool
    public var caseSensitive: Bool
    public var percentEncoded: Bool

    /// Resolves `component` against the two levels of defaults, most specific first.
    public init(_ component: ComponentRule, entryDefaults: ComponentRule?, serviceDefaults: ComponentRule?) {
        let levels = [component, entryDefaults, serviceDefaults].compactMap { $0 }
        path = levels.lazy.compactMap(\.path).first ?? "*"
        query = levels.lazy.compactMap(\.query).first ?? .string("*")
        fragment = levels.lazy.compactMap(\.fragment).first ?? "*"
        exclude = levels.lazy.compactMap(\.exclude).first ?? false
        caseSensitive = levels.lazy.compactMap(\.caseSensitive).first ?? true
        percentEncoded = levels.lazy.compactMap(\.percentEncoded).first ?? true
    }

    /// Uses the AASA file's own key names, so the output reads like the rule a user wrote.
    private enum CodingKeys: String, CodingKey {
        case path = "/"
        case query = "?"
        case fragment = "#"
        case exclude
        case caseSensitive
        case percentEncoded
    }
}

extension QueryRule: Codable {
    /// A string pattern stays a string; a dictionary stays a dictionary (names sorted, so output is stable);
    /// a disregarded dictionary is written as `"*"`, which is how it behaves.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let pattern): try container.encode(pattern)
        case .disregarded: try container.encode("*")
        case .items(let items):
            try container.encode(Dictionary(items.map { ($0.name, $0.pattern) }, uniquingKeysWith: { _, last in last }))
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let pattern = try? container.decode(String.self) {
            self = .string(pattern)
        } else {
            let items = try container.decode([String: String].self)
            self = .items(items.sorted { $0.key < $1.key }.map { QueryItemRule(name: $0.key, pattern: $0.value) })
        }
    }
}
