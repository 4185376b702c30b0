/// How two documents differ in meaning, in the terms of the people who edit them: apps, entries, rules, defaults.
public struct DocumentDiff: Sendable, Hashable, Codable {
    /// Same canonical form (same `sha256:` hash): byte, whitespace and key-order differences do not count.
    public var sameMeaning: Bool
    /// Whether any change can alter what a device does. `false` when only `comment`s, unknown keys or unknown
    /// services changed; `cdn.stale` is then `info`, not a warning.
    public var canChangeBehavior: Bool
    public var hashA: String
    public var hashB: String
    /// Empty exactly when `sameMeaning` is true.
    public var changes: [Change]

    public init(sameMeaning: Bool, canChangeBehavior: Bool, hashA: String, hashB: String, changes: [Change]) {
        self.sameMeaning = sameMeaning
        self.canChangeBehavior = canChangeBehavior
        self.hashA = hashA
        self.hashB = hashB
        self.changes = changes
    }

    enum CodingKeys: String, CodingKey {
        case sameMeaning = "same_meaning"
        case canChangeBehavior = "can_change_behavior"
        case hashA = "hash_a"
        case hashB = "hash_b"
        case changes
    }
}

/// One difference between document A (before) and document B (after).
public struct Change: Sendable, Hashable, Codable {
    /// What changed. Raw values are part of the JSON interface: add kinds, never rename one.
    public enum Kind: String, Sendable, Hashable, Codable {
        case serviceAdded = "service_added"
        case serviceRemoved = "service_removed"
        /// An unknown (opaque) top-level service changed.
        case serviceChanged = "service_changed"
        case appAdded = "app_added"
        case appRemoved = "app_removed"
        /// An app gained a `details` entry (when it already had one) …
        case entryAdded = "entry_added"
        /// … or lost one while keeping another.
        case entryRemoved = "entry_removed"
        case ruleAdded = "rule_added"
        case ruleRemoved = "rule_removed"
        case ruleChanged = "rule_changed"
        case defaultsChanged = "defaults_changed"
        case variableAdded = "variable_added"
        case variableRemoved = "variable_removed"
        case variableChanged = "variable_changed"
        /// The legacy `applinks.apps` array changed.
        case legacyAppsChanged = "legacy_apps_changed"
        /// Anything else (unknown keys, values of the wrong type, the shape of `details`).
        case otherChanged = "other_changed"
    }

    public var kind: Kind
    /// Where the change is: in B for additions and changes, in A for removals.
    public var path: String
    /// The service (`applinks`, `webcredentials`, …), when the change belongs to one.
    public var service: String?
    /// The app whose behaviour the change concerns, for app, entry and rule changes.
    public var app: String?
    /// The rule's index in its list (`components` or `paths`): in B, or in A for a removal.
    public var index: Int?
    /// For a changed rule, its index in A (it may have moved).
    public var indexBefore: Int?
    /// The value in A, as canonical JSON text.
    public var before: String?
    /// The value in B, as canonical JSON text.
    public var after: String?
    public var affectsBehavior: Bool
    /// One line for a person.
    public var summary: String

    public init(
        kind: Kind, path: String, service: String? = nil, app: String? = nil, index: Int? = nil,
        indexBefore: Int? = nil, before: String? = nil, after: String? = nil, affectsBehavior: Bool, summary: String
    ) {
        self.kind = kind
        self.path = path
        self.service = service
        self.app = app
        self.index = index
        self.indexBefore = indexBefore
        self.before = before
        self.after = after
        self.affectsBehavior = affectsBehavior
        self.summary = summary
    }

    enum CodingKeys: String, CodingKey {
        case kind, path, service, app, index
        case indexBefore = "index_before"
        case before, after
        case affectsBehavior = "affects_behavior"
        case summary
    }
}
