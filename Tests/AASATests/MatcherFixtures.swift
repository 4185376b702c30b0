import AASA

/// Small builders so matcher tables read like the AASA rules they stand for.
enum MatcherFixtures {
    static let app = "ABCDE12345.com.example.app"
    static let otherApp = "ZYXWV98765.com.example.other"

    /// A component; arguments left out are absent keys.
    static func component(
        _ path: String? = nil, query: QueryRule? = nil, fragment: String? = nil, exclude: Bool? = nil,
        caseSensitive: Bool? = nil, percentEncoded: Bool? = nil
    ) -> ComponentRule {
        ComponentRule(
            path: path, query: query, fragment: fragment, exclude: exclude, caseSensitive: caseSensitive,
            percentEncoded: percentEncoded, jsonPath: "$")
    }

    static func items(_ pairs: KeyValuePairs<String, String>) -> QueryRule {
        .items(pairs.map { QueryItemRule(name: $0.key, pattern: $0.value) })
    }

    /// A document with one `details` entry for `app` holding `components`.
    static func document(
        _ components: [ComponentRule],
        entryDefaults: ComponentRule? = nil,
        serviceDefaults: ComponentRule? = nil,
        variables: [String: [String]] = [:]
    ) -> AASADocument {
        let entry = AppLinksEntry(
            appIDs: [app], components: numbered(components, under: "$.applinks.details[0]"),
            defaults: entryDefaults, jsonPath: "$.applinks.details[0]")
        return document(entries: [entry], serviceDefaults: serviceDefaults, variables: variables)
    }

    static func document(
        entries: [AppLinksEntry], serviceDefaults: ComponentRule? = nil, variables: [String: [String]] = [:]
    ) -> AASADocument {
        let applinks = AppLinksService(
            details: entries, defaults: serviceDefaults,
            substitutionVariables: variables.sorted { $0.key < $1.key }.map {
                SubstitutionVariable(name: $0.key, values: $0.value)
            })
        return AASADocument(json: .null, applinks: applinks)
    }

    /// A document with one legacy entry.
    static func legacy(_ paths: [String], components: [ComponentRule]? = nil) -> AASADocument {
        let entry = AppLinksEntry(
            appIDs: [app], paths: paths, components: components.map { numbered($0, under: "$.applinks.details[0]") },
            jsonPath: "$.applinks.details[0]")
        return document(entries: [entry])
    }

    static func numbered(_ components: [ComponentRule], under entryPath: String) -> [ComponentRule] {
        components.enumerated().map { index, component in
            var numbered = component
            numbered.jsonPath = "\(entryPath).components[\(index)]"
            return numbered
        }
    }

    /// The decision for `url` in `document`, for `app`, host unchecked.
    static func decision(_ document: AASADocument, _ url: String, app: String = app) throws -> MatchDecision {
        try URLMatcher(document: document).decide(url: url, appID: app).decision
    }
}
