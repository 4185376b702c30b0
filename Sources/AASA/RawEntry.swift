/// A `details` entry as written, paired with the app IDs the model read from it, for diffing.
///
/// The diff shows rules exactly as written (comments included) but judges behaviour through the model, so it
/// needs both views of each entry.
struct RawEntry {
    var appIDs: [String]
    var json: JSONValue
    var path: String

    /// Every entry of `applinks.details` in document order (array or 2015 dictionary form).
    static func all(in document: AASADocument) -> [RawEntry] {
        let modelEntries = document.applinks?.details ?? []
        var byPath: [String: AppLinksEntry] = [:]
        for entry in modelEntries { byPath[entry.jsonPath] = entry }
        let detailsPath = JSONPath.child(JSONPath.child(JSONPath.root, "applinks"), "details")
        var raw: [(path: String, json: JSONValue)] = []
        switch document.json["applinks"]?["details"] {
        case .array(let elements)?:
            raw = elements.enumerated().map { (JSONPath.index(detailsPath, $0.offset), $0.element) }
        case .object(let members)?:
            raw = JSONMember.resolved(members).map { (JSONPath.child(detailsPath, $0.key), $0.value) }
        default:
            break
        }
        return raw.compactMap { item in
            byPath[item.path].map { RawEntry(appIDs: $0.appIDs, json: item.json, path: item.path) }
        }
    }

    /// The distinct apps of `entries`, in order of first appearance.
    static func apps(_ entries: [RawEntry]) -> [String] {
        var seen: Set<String> = []
        return entries.flatMap(\.appIDs).filter { seen.insert($0).inserted }
    }

    /// The elements of the `components` or `paths` array (empty when absent or not an array).
    func rules(_ key: String) -> [JSONValue] {
        if case .array(let elements)? = json[key] { return elements }
        return []
    }

    /// What a component (or a legacy path string) means to a device: comments and unknown keys dropped.
    static func meaning(_ rule: JSONValue) -> ComponentRule? {
        if case .string(let pattern) = rule { return ComponentRule(path: pattern, jsonPath: "") }
        var builder = DocumentBuilder()
        return builder.component(rule, at: "").map(BehaviorView.meaning)
    }
}
