/// Compares two documents by meaning and describes the differences per service, app, entry and rule.
///
/// Used by `aasa-monitor diff` and to explain `cdn.stale` (origin vs Apple's copy). Identity is the canonical
/// hash, so re-serialization never shows up as a change. Rules are aligned by content, so inserting a rule at the
/// top is one `rule_added` at index 0, not a change of every later index.
public enum AASADiff {
    public static func compare(_ a: AASADocument, _ b: AASADocument) -> DocumentDiff {
        let hashA = CanonicalJSON.hash(of: a.json)
        let hashB = CanonicalJSON.hash(of: b.json)
        guard hashA != hashB else {
            return DocumentDiff(sameMeaning: true, canChangeBehavior: false, hashA: hashA, hashB: hashB, changes: [])
        }
        var differ = Differ()
        differ.compareServices(a, b)
        if differ.changes.isEmpty
            || (BehaviorView(a) != BehaviorView(b) && !differ.changes.contains(where: \.affectsBehavior))
        {
            let affects = BehaviorView(a) != BehaviorView(b)
            // No before/after: whole documents would make the change as large as both files (webhook bodies must
            // stay small); the hashes identify them.
            differ.changes.append(
                Change(
                    kind: .otherChanged, path: JSONPath.root, affectsBehavior: affects,
                    summary: affects
                        ? "the documents differ in a way not itemized here"
                        : "only what a device cannot observe differs (order of entries for different apps or of app lists, comments, keys Apple ignores)"
                ))
        }
        return DocumentDiff(
            sameMeaning: false, canChangeBehavior: differ.changes.contains(where: \.affectsBehavior),
            hashA: hashA, hashB: hashB, changes: differ.changes)
    }
}

/// What a device can observe of a document, and nothing else: two documents with equal views behave the same.
///
/// The matcher reads, for one app, only the entries that list it, in document order; so entries are kept per
/// app, and reordering entries of different apps is no change. App lists and variables are sets (their order and
/// repeats mean nothing); comments, JSON paths and unknown services are left out.
struct BehaviorView: Hashable {
    /// One entry as the matcher uses it for an app that it lists.
    struct Entry: Hashable {
        var paths: [String]?
        var components: [ComponentRule]?
        var defaults: ComponentRule?
    }

    var hasAppLinks: Bool
    var legacyApps: [String]?
    var defaults: ComponentRule?
    var variables: [String: [String]]
    var entriesByApp: [String: [Entry]]
    var lists: [Set<String>?]

    init(_ document: AASADocument) {
        lists = [document.webcredentials, document.appclips, document.activitycontinuation].map {
            $0.map { Set($0.apps) }
        }
        let service = document.applinks
        hasAppLinks = service != nil
        legacyApps = service?.apps
        defaults = service?.defaults.map(BehaviorView.meaning)
        variables = Dictionary(
            (service?.substitutionVariables ?? []).map { ($0.name, $0.values) }, uniquingKeysWith: { _, last in last })
        var entriesByApp: [String: [Entry]] = [:]
        for entry in service?.details ?? [] {
            let view = Entry(
                paths: entry.paths, components: entry.components?.map(BehaviorView.meaning),
                defaults: entry.defaults.map(BehaviorView.meaning))
            for app in Set(entry.appIDs) { entriesByApp[app, default: []].append(view) }
        }
        self.entriesByApp = entriesByApp
    }

    static func meaning(_ rule: ComponentRule) -> ComponentRule {
        var rule = rule
        rule.jsonPath = ""
        rule.comment = nil
        return rule
    }
}

/// Collects changes while walking both documents.
private struct Differ {
    var changes: [Change] = []

    mutating func compareServices(_ a: AASADocument, _ b: AASADocument) {
        let root = JSONPath.root
        for name in KnownKeys.services {
            let path = JSONPath.child(root, name)
            switch (a.json[name], b.json[name]) {
            case (nil, nil): continue
            case (nil, let added?):
                changes.append(
                    Change(
                        kind: .serviceAdded, path: path, service: name, after: CanonicalJSON.text(of: added),
                        affectsBehavior: true, summary: "service \(name) added"))
            case (let removed?, nil):
                changes.append(
                    Change(
                        kind: .serviceRemoved, path: path, service: name, before: CanonicalJSON.text(of: removed),
                        affectsBehavior: true, summary: "service \(name) removed"))
            case (let before?, let after?):
                guard before != after else { continue }
                if name == "applinks" {
                    compareAppLinks(a, b)
                } else {
                    compareApps(apps(a, name), apps(b, name), service: name, path: JSONPath.child(path, "apps"))
                }
            }
        }
        let otherA = JSONMember.resolved(a.otherServices)
        let otherB = JSONMember.resolved(b.otherServices)
        for name in Set(otherA.map(\.key) + otherB.map(\.key)).sorted() {
            let before = otherA.first { $0.key == name }?.value
            let after = otherB.first { $0.key == name }?.value
            guard before.map(CanonicalJSON.text) != after.map(CanonicalJSON.text) else { continue }
            let kind: Change.Kind = before == nil ? .serviceAdded : after == nil ? .serviceRemoved : .serviceChanged
            // Apple ignores top-level keys it does not know (only `applinks`, `webcredentials`, `appclips` and
            // `activitycontinuation` are services), so these cannot change behaviour.
            changes.append(
                Change(
                    kind: kind, path: JSONPath.child(JSONPath.root, name), service: name,
                    before: before.map(CanonicalJSON.text), after: after.map(CanonicalJSON.text),
                    affectsBehavior: false,
                    summary:
                        "unknown service \(name) \(kind == .serviceChanged ? "changed" : kind == .serviceAdded ? "added" : "removed")"
                ))
        }
    }

    private func apps(_ document: AASADocument, _ name: String) -> [String] {
        switch name {
        case "webcredentials": document.webcredentials?.apps ?? []
        case "appclips": document.appclips?.apps ?? []
        default: document.activitycontinuation?.apps ?? []
        }
    }

    private mutating func compareApps(_ a: [String], _ b: [String], service: String, path: String) {
        let setA = Set(a)
        let setB = Set(b)
        for app in b where !setA.contains(app) {
            changes.append(
                Change(
                    kind: .appAdded, path: path, service: service, app: app, affectsBehavior: true,
                    summary: "\(service): app \(app) added"))
        }
        for app in a where !setB.contains(app) {
            changes.append(
                Change(
                    kind: .appRemoved, path: path, service: service, app: app, affectsBehavior: true,
                    summary: "\(service): app \(app) removed"))
        }
        if setA == setB && a != b {
            // Order and repeats of an app list do not matter to Apple, but they change the canonical form.
            changes.append(
                Change(
                    kind: .otherChanged, path: path, service: service, before: a.description, after: b.description,
                    affectsBehavior: false, summary: "\(service): apps reordered or repeated"))
        }
    }

    private mutating func compareAppLinks(_ a: AASADocument, _ b: AASADocument) {
        let service = "applinks"
        let path = JSONPath.child(JSONPath.root, service)
        let serviceA = a.applinks ?? AppLinksService()
        let serviceB = b.applinks ?? AppLinksService()
        if serviceA.apps != serviceB.apps {
            changes.append(
                Change(
                    kind: .legacyAppsChanged, path: JSONPath.child(path, "apps"), service: service,
                    before: serviceA.apps?.description, after: serviceB.apps?.description, affectsBehavior: true,
                    summary: "legacy applinks.apps changed (read by iOS 9–12 only)"))
        }
        compareDefaults(
            a.json[service]?["defaults"], b.json[service]?["defaults"], path: JSONPath.child(path, "defaults"),
            app: nil)
        compareVariables(a.json[service]?["substitutionVariables"], b.json[service]?["substitutionVariables"], path)

        let entriesA = RawEntry.all(in: a)
        let entriesB = RawEntry.all(in: b)
        let appsA = RawEntry.apps(entriesA)
        let appsB = RawEntry.apps(entriesB)
        // Indexed once: looking entries up per app would be apps × entries, seconds on a large file.
        let byAppA = Self.entriesByApp(entriesA)
        let byAppB = Self.entriesByApp(entriesB)
        for app in appsB where byAppA[app] == nil {
            let entryPath = byAppB[app]?.first?.path ?? path
            changes.append(
                Change(
                    kind: .appAdded, path: entryPath, service: service, app: app, affectsBehavior: true,
                    summary: "applinks: app \(app) added"))
        }
        for app in appsA where byAppB[app] == nil {
            let entryPath = byAppA[app]?.first?.path ?? path
            changes.append(
                Change(
                    kind: .appRemoved, path: entryPath, service: service, app: app, affectsBehavior: true,
                    summary: "applinks: app \(app) removed"))
        }
        for app in appsB {
            guard let forA = byAppA[app], let forB = byAppB[app] else { continue }
            for (entryA, entryB) in zip(forA, forB) {
                compareEntry(entryA, entryB, app: app)
            }
            for extra in forB.dropFirst(forA.count) {
                changes.append(
                    Change(
                        kind: .entryAdded, path: extra.path, service: service, app: app,
                        after: CanonicalJSON.text(of: extra.json), affectsBehavior: true,
                        summary: "applinks: another entry for \(app) added at \(extra.path)"))
            }
            for missing in forA.dropFirst(forB.count) {
                changes.append(
                    Change(
                        kind: .entryRemoved, path: missing.path, service: service, app: app,
                        before: CanonicalJSON.text(of: missing.json), affectsBehavior: true,
                        summary: "applinks: an entry for \(app) removed from \(missing.path)"))
            }
        }
    }

    /// The entries listing each app, in document order.
    private static func entriesByApp(_ entries: [RawEntry]) -> [String: [RawEntry]] {
        var index: [String: [RawEntry]] = [:]
        for entry in entries {
            for app in Set(entry.appIDs) { index[app, default: []].append(entry) }
        }
        return index
    }

    private mutating func compareEntry(_ a: RawEntry, _ b: RawEntry, app: String) {
        compareRules(a, b, key: "components", app: app)
        compareRules(a, b, key: "paths", app: app)
        compareDefaults(a.json["defaults"], b.json["defaults"], path: JSONPath.child(b.path, "defaults"), app: app)
    }

    private mutating func compareRules(_ a: RawEntry, _ b: RawEntry, key: String, app: String) {
        let rulesA = a.rules(key)
        let rulesB = b.rules(key)
        let textA = rulesA.map(CanonicalJSON.text)
        let textB = rulesB.map(CanonicalJSON.text)
        guard textA != textB else { return }
        let listA = JSONPath.child(a.path, key)
        let listB = JSONPath.child(b.path, key)
        for step in SequenceAlignment.align(textA, textB) {
            switch step {
            case .same:
                continue
            case .added(let j):
                changes.append(
                    Change(
                        kind: .ruleAdded, path: JSONPath.index(listB, j), service: "applinks", app: app, index: j,
                        after: textB[j], affectsBehavior: true, summary: "\(app): \(key)[\(j)] added: \(textB[j])"))
            case .removed(let i):
                changes.append(
                    Change(
                        kind: .ruleRemoved, path: JSONPath.index(listA, i), service: "applinks", app: app, index: i,
                        before: textA[i], affectsBehavior: true, summary: "\(app): \(key)[\(i)] removed: \(textA[i])"))
            case .changed(let i, let j):
                let affects = RawEntry.meaning(rulesA[i]) != RawEntry.meaning(rulesB[j])
                changes.append(
                    Change(
                        kind: .ruleChanged, path: JSONPath.index(listB, j), service: "applinks", app: app, index: j,
                        indexBefore: i, before: textA[i], after: textB[j], affectsBehavior: affects,
                        summary: "\(app): \(key)[\(j)] changed from \(textA[i]) to \(textB[j])"
                            + (affects ? "" : " (comment or unknown keys only)")))
            }
        }
    }

    private mutating func compareDefaults(_ a: JSONValue?, _ b: JSONValue?, path: String, app: String?) {
        let before = a.map(CanonicalJSON.text)
        let after = b.map(CanonicalJSON.text)
        guard before != after else { return }
        let affects = a.flatMap(RawEntry.meaning) != b.flatMap(RawEntry.meaning)
        changes.append(
            Change(
                kind: .defaultsChanged, path: path, service: "applinks", app: app, before: before, after: after,
                affectsBehavior: affects, summary: "\(path) changed from \(before ?? "absent") to \(after ?? "absent")")
        )
    }

    private mutating func compareVariables(_ a: JSONValue?, _ b: JSONValue?, _ applinksPath: String) {
        let path = JSONPath.child(applinksPath, "substitutionVariables")
        let membersA: [JSONMember]
        let membersB: [JSONMember]
        if case .object(let members) = a ?? .null {
            membersA = JSONMember.resolved(members)
        } else {
            membersA = []
        }
        if case .object(let members) = b ?? .null {
            membersB = JSONMember.resolved(members)
        } else {
            membersB = []
        }
        for name in Set(membersA.map(\.key) + membersB.map(\.key)).sorted() {
            let before = membersA.first { $0.key == name }.map { CanonicalJSON.text(of: $0.value) }
            let after = membersB.first { $0.key == name }.map { CanonicalJSON.text(of: $0.value) }
            guard before != after else { continue }
            let kind: Change.Kind = before == nil ? .variableAdded : after == nil ? .variableRemoved : .variableChanged
            changes.append(
                Change(
                    kind: kind, path: JSONPath.child(path, name), service: "applinks", before: before, after: after,
                    affectsBehavior: true, summary: "$(\(name)) \(before ?? "undefined") → \(after ?? "undefined")"))
        }
    }
}
