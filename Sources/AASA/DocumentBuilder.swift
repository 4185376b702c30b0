/// Reads an `AASADocument` out of parsed JSON the tolerant way Apple does, reporting what it had to skip.
///
/// A value of the wrong type is left out of the model and reported as `aasa.type` (with the path, the expected
/// and the found type) instead of failing the document: one bad key should not hide every other problem. Keys
/// no Apple system reads are reported as `aasa.unknown_key` (with a suggestion when it looks like a typo), and a
/// query dictionary holding a non-string value becomes `.disregarded` with `aasa.query_not_string`, because
/// that is what Apple does with it. For duplicate keys the last member wins, as in Foundation's parser.
struct DocumentBuilder {
    private(set) var findings: [Finding] = []

    mutating func build(_ json: JSONValue) -> AASADocument {
        var document = AASADocument(json: json)
        guard case .object(let members) = json else {
            typeMismatch(at: JSONPath.root, expected: "object", found: json)
            return document
        }
        for member in JSONMember.resolved(members) {
            let path = JSONPath.child(JSONPath.root, member.key)
            switch member.key {
            case "applinks": document.applinks = appLinks(member.value, at: path)
            case "webcredentials": document.webcredentials = appList(member.value, at: path)
            case "appclips": document.appclips = appList(member.value, at: path)
            case "activitycontinuation": document.activitycontinuation = appList(member.value, at: path)
            default:
                document.otherServices.append(member)
                if let suggestion = KnownKeys.suggestion(for: member.key, among: KnownKeys.services) {
                    findings.append(
                        Finding(
                            code: .aasaUnknownKey, severity: .warning, path: path,
                            message: "unknown service \"\(member.key)\" is ignored; did you mean \"\(suggestion)\"?"
                        ))
                }
            }
        }
        return document
    }

    private mutating func appLinks(_ value: JSONValue, at path: String) -> AppLinksService? {
        guard case .object(let members) = value else {
            typeMismatch(at: path, expected: "object", found: value)
            return nil
        }
        var service = AppLinksService()
        for member in JSONMember.resolved(members) {
            let childPath = JSONPath.child(path, member.key)
            switch member.key {
            case "apps": service.apps = strings(member.value, at: childPath)
            case "details": service.details = details(member.value, at: childPath)
            case "defaults": service.defaults = component(member.value, at: childPath)
            case "substitutionVariables":
                service.substitutionVariables = substitutionVariables(member.value, at: childPath)
            default: unknownKey(member.key, at: childPath, known: KnownKeys.appLinks, level: "applinks")
            }
        }
        return service
    }

    private mutating func appList(_ value: JSONValue, at path: String) -> AppListService? {
        guard case .object(let members) = value else {
            typeMismatch(at: path, expected: "object", found: value)
            return nil
        }
        var service = AppListService(apps: [])
        for member in JSONMember.resolved(members) {
            let childPath = JSONPath.child(path, member.key)
            if member.key == "apps" {
                service.apps = strings(member.value, at: childPath) ?? []
            } else {
                unknownKey(member.key, at: childPath, known: KnownKeys.appList, level: "this service")
            }
        }
        return service
    }

    private mutating func details(_ value: JSONValue, at path: String) -> [AppLinksEntry] {
        switch value {
        case .array(let elements):
            return elements.enumerated().compactMap { index, element in
                entry(element, at: JSONPath.index(path, index), dictionaryKey: nil)
            }
        case .object(let members):
            // The 2015 form: `details` keyed by app ID. Each key becomes one entry for that app.
            return JSONMember.resolved(members).compactMap { member in
                entry(member.value, at: JSONPath.child(path, member.key), dictionaryKey: member.key)
            }
        default:
            typeMismatch(at: path, expected: "array", found: value)
            return []
        }
    }

    private mutating func entry(_ value: JSONValue, at path: String, dictionaryKey: String?) -> AppLinksEntry? {
        guard case .object(let members) = value else {
            typeMismatch(at: path, expected: "object", found: value)
            return nil
        }
        var entry = AppLinksEntry(appIDs: dictionaryKey.map { [$0] } ?? [], jsonPath: path)
        var legacyAppID: String?
        for member in JSONMember.resolved(members) {
            let childPath = JSONPath.child(path, member.key)
            switch member.key {
            case "appID":
                if case .string(let appID) = member.value {
                    legacyAppID = appID
                } else {
                    typeMismatch(at: childPath, expected: "string", found: member.value)
                }
            case "appIDs": entry.appIDs.append(contentsOf: strings(member.value, at: childPath) ?? [])
            case "paths": entry.paths = strings(member.value, at: childPath)
            case "components": entry.components = components(member.value, at: childPath)
            case "defaults": entry.defaults = component(member.value, at: childPath)
            default: unknownKey(member.key, at: childPath, known: KnownKeys.entry, level: "a details entry")
            }
        }
        if let legacyAppID, !entry.appIDs.contains(legacyAppID) { entry.appIDs.append(legacyAppID) }
        return entry
    }

    private mutating func components(_ value: JSONValue, at path: String) -> [ComponentRule]? {
        guard case .array(let elements) = value else {
            typeMismatch(at: path, expected: "array", found: value)
            return nil
        }
        return elements.enumerated().compactMap { index, element in
            component(element, at: JSONPath.index(path, index))
        }
    }

    mutating func component(_ value: JSONValue, at path: String) -> ComponentRule? {
        guard case .object(let members) = value else {
            typeMismatch(at: path, expected: "object", found: value)
            return nil
        }
        var rule = ComponentRule(jsonPath: path)
        for member in JSONMember.resolved(members) {
            let childPath = JSONPath.child(path, member.key)
            switch member.key {
            case "/": rule.path = string(member.value, at: childPath)
            case "#": rule.fragment = string(member.value, at: childPath)
            case "?": rule.query = query(member.value, at: childPath)
            case "exclude": rule.exclude = bool(member.value, at: childPath)
            case "caseSensitive": rule.caseSensitive = bool(member.value, at: childPath)
            case "percentEncoded": rule.percentEncoded = bool(member.value, at: childPath)
            case "comment": rule.comment = string(member.value, at: childPath)
            default: unknownKey(member.key, at: childPath, known: KnownKeys.component, level: "a component")
            }
        }
        return rule
    }

    private mutating func query(_ value: JSONValue, at path: String) -> QueryRule? {
        switch value {
        case .string(let pattern): return .string(pattern)
        case .object(let members):
            var items: [QueryItemRule] = []
            var disregarded = false
            for member in JSONMember.resolved(members) {
                guard case .string(let pattern) = member.value else {
                    disregarded = true
                    findings.append(
                        Finding(
                            code: .aasaQueryNotString, severity: .error, path: JSONPath.child(path, member.key),
                            message: "query item \"\(member.key)\" is a \(member.value.typeName), so Apple ignores "
                                + "the whole \"?\" dictionary and it matches every query; write the value as a "
                                + "string pattern"
                        ))
                    continue
                }
                items.append(QueryItemRule(name: member.key, pattern: pattern))
            }
            return disregarded ? .disregarded : .items(items)
        default:
            typeMismatch(at: path, expected: "string or object", found: value)
            return nil
        }
    }

    private mutating func substitutionVariables(_ value: JSONValue, at path: String) -> [SubstitutionVariable] {
        guard case .object(let members) = value else {
            typeMismatch(at: path, expected: "object", found: value)
            return []
        }
        return JSONMember.resolved(members).compactMap { member in
            guard let values = strings(member.value, at: JSONPath.child(path, member.key)) else { return nil }
            return SubstitutionVariable(name: member.key, values: values)
        }
    }

    /// An array of strings; non-string elements are reported and dropped, a non-array is reported and `nil`.
    private mutating func strings(_ value: JSONValue, at path: String) -> [String]? {
        guard case .array(let elements) = value else {
            typeMismatch(at: path, expected: "array of strings", found: value)
            return nil
        }
        var result: [String] = []
        for (index, element) in elements.enumerated() {
            if case .string(let string) = element {
                result.append(string)
            } else {
                typeMismatch(at: JSONPath.index(path, index), expected: "string", found: element)
            }
        }
        return result
    }

    private mutating func string(_ value: JSONValue, at path: String) -> String? {
        if case .string(let string) = value { return string }
        typeMismatch(at: path, expected: "string", found: value)
        return nil
    }

    private mutating func bool(_ value: JSONValue, at path: String) -> Bool? {
        if case .bool(let flag) = value { return flag }
        typeMismatch(at: path, expected: "boolean", found: value)
        return nil
    }

    private mutating func typeMismatch(at path: String, expected: String, found: JSONValue) {
        var message = "expected \(expected), found \(found.typeName)"
        if expected == "boolean", case .string(let text) = found, text == "true" || text == "false" {
            message += "; write \(text) without quotes"
        } else {
            let article = expected.first.map { "aeiou".contains($0) } == true ? "an" : "a"
            message += "; Apple ignores this value: make it \(article) \(expected)"
        }
        findings.append(Finding(code: .aasaType, severity: .error, path: path, message: message))
    }

    private mutating func unknownKey(_ key: String, at path: String, known: [String], level: String) {
        var message = "\"\(key)\" is not a key of \(level) and is silently ignored"
        if let suggestion = KnownKeys.suggestion(for: key, among: known) {
            message += "; did you mean \"\(suggestion)\"?"
        } else {
            message += "; known keys: " + known.map { "\"\($0)\"" }.joined(separator: ", ")
        }
        findings.append(Finding(code: .aasaUnknownKey, severity: .warning, path: path, message: message))
    }
}
