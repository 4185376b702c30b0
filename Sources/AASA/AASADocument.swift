/// What an apple-app-site-association file means, service by service.
///
/// The parser fills this model tolerantly, the way Apple reads files: a key of the wrong type is left out (and
/// reported as a finding) rather than failing the whole document. `json` keeps the document as written, for the
/// canonical form and for services this model does not know.
public struct AASADocument: Sendable, Hashable {
    /// The whole document as parsed (after unwrapping a PKCS7 envelope and skipping a BOM).
    public var json: JSONValue
    public var applinks: AppLinksService?
    public var webcredentials: AppListService?
    public var appclips: AppListService?
    public var activitycontinuation: AppListService?
    /// Top-level keys that are not a known service, kept as opaque values.
    public var otherServices: [JSONMember]

    public init(
        json: JSONValue,
        applinks: AppLinksService? = nil,
        webcredentials: AppListService? = nil,
        appclips: AppListService? = nil,
        activitycontinuation: AppListService? = nil,
        otherServices: [JSONMember] = []
    ) {
        self.json = json
        self.applinks = applinks
        self.webcredentials = webcredentials
        self.appclips = appclips
        self.activitycontinuation = activitycontinuation
        self.otherServices = otherServices
    }
}

/// A service that only lists app IDs: `webcredentials`, `appclips`, `activitycontinuation`.
public struct AppListService: Sendable, Hashable {
    public var apps: [String]

    public init(apps: [String]) {
        self.apps = apps
    }
}

/// The `applinks` service: universal links.
public struct AppLinksService: Sendable, Hashable {
    /// Legacy `apps` array (must be `[]` on iOS 9–12; omitted in modern files). `nil` when absent.
    public var apps: [String]?
    /// The entries in document order. The 2015 dictionary form (`details` keyed by app ID) becomes one entry per
    /// key, in document order.
    public var details: [AppLinksEntry]
    /// `applinks.defaults`: the weakest level of component defaults.
    public var defaults: ComponentRule?
    /// `applinks.substitutionVariables`: custom `$(name)` values, in document order.
    public var substitutionVariables: [SubstitutionVariable]

    public init(
        apps: [String]? = nil,
        details: [AppLinksEntry] = [],
        defaults: ComponentRule? = nil,
        substitutionVariables: [SubstitutionVariable] = []
    ) {
        self.apps = apps
        self.details = details
        self.defaults = defaults
        self.substitutionVariables = substitutionVariables
    }
}

/// A custom substitution variable: `$(name)` stands for any one of `values`.
public struct SubstitutionVariable: Sendable, Hashable {
    public var name: String
    public var values: [String]

    public init(name: String, values: [String]) {
        self.name = name
        self.values = values
    }
}

/// One `details` entry: the apps it applies to and their rules.
public struct AppLinksEntry: Sendable, Hashable {
    /// `appIDs` followed by a legacy `appID` not already listed, or the key of the dictionary form.
    public var appIDs: [String]
    /// Legacy path patterns (`"NOT "` prefix excludes). Ignored by iOS 13+ when `components` is present.
    public var paths: [String]?
    /// Modern rules.
    public var components: [ComponentRule]?
    /// `details[].defaults`: overrides `applinks.defaults`, overridden by each component.
    public var defaults: ComponentRule?
    /// Where the entry is in the document, e.g. `$.applinks.details[0]`.
    public var jsonPath: String

    public init(
        appIDs: [String],
        paths: [String]? = nil,
        components: [ComponentRule]? = nil,
        defaults: ComponentRule? = nil,
        jsonPath: String
    ) {
        self.appIDs = appIDs
        self.paths = paths
        self.components = components
        self.defaults = defaults
        self.jsonPath = jsonPath
    }
}

/// A component dictionary (also the shape of both `defaults` levels). `nil` means the key is absent, so the next
/// level's value applies.
public struct ComponentRule: Sendable, Hashable {
    /// `/`: the path pattern.
    public var path: String?
    /// `?`: the query pattern.
    public var query: QueryRule?
    /// `#`: the fragment pattern.
    public var fragment: String?
    public var exclude: Bool?
    public var caseSensitive: Bool?
    public var percentEncoded: Bool?
    /// `comment`: ignored by the system.
    public var comment: String?
    /// Where the dictionary is in the document, e.g. `$.applinks.details[0].components[2]`.
    public var jsonPath: String

    public init(
        path: String? = nil,
        query: QueryRule? = nil,
        fragment: String? = nil,
        exclude: Bool? = nil,
        caseSensitive: Bool? = nil,
        percentEncoded: Bool? = nil,
        comment: String? = nil,
        jsonPath: String
    ) {
        self.path = path
        self.query = query
        self.fragment = fragment
        self.exclude = exclude
        self.caseSensitive = caseSensitive
        self.percentEncoded = percentEncoded
        self.comment = comment
        self.jsonPath = jsonPath
    }
}

/// The `?` key of a component.
public enum QueryRule: Sendable, Hashable {
    /// Matched against the whole query string.
    case string(String)
    /// Every named item must match its pattern (absent items count as `""`); other items are ignored.
    case items([QueryItemRule])
    /// A dictionary holding a non-string value: Apple disregards the whole dictionary, so it matches every query.
    case disregarded
}

/// One `name: pattern` pair of a query dictionary.
public struct QueryItemRule: Sendable, Hashable {
    public var name: String
    public var pattern: String

    public init(name: String, pattern: String) {
        self.name = name
        self.pattern = pattern
    }
}
