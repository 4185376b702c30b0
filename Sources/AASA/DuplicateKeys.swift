/// Finds keys an object repeats (`aasa.duplicate_key`).
///
/// JSON leaves duplicate keys undefined: Foundation (and so Apple) keeps the last one, while other parsers keep
/// the first or fail. A person editing the first copy will see no effect, so each repeat is worth a warning.
enum DuplicateKeys {
    static func findings(in value: JSONValue) -> [Finding] {
        var findings: [Finding] = []
        // An explicit stack instead of recursion: the parser allows deep nesting and lint must not overflow.
        var stack: [(value: JSONValue, path: String)] = [(value, JSONPath.root)]
        while let (current, path) = stack.popLast() {
            switch current {
            case .array(let elements):
                for (index, element) in elements.enumerated().reversed() where element.isContainer {
                    stack.append((element, JSONPath.index(path, index)))
                }
            case .object(let members):
                var seen: [String: Int] = [:]
                for member in members { seen[member.key, default: 0] += 1 }
                var reported: Set<String> = []
                for member in members where seen[member.key, default: 0] > 1 && !reported.contains(member.key) {
                    reported.insert(member.key)
                    findings.append(
                        Finding(
                            code: "aasa.duplicate_key", severity: .warning, path: JSONPath.child(path, member.key),
                            message: "\"\(member.key)\" appears \(seen[member.key, default: 0]) times in this "
                                + "object; Apple uses the last one, other parsers may not: keep only one"
                        ))
                }
                for member in members.reversed() where member.value.isContainer {
                    stack.append((member.value, JSONPath.child(path, member.key)))
                }
            default:
                break
            }
        }
        return findings
    }
}

extension JSONValue {
    var isContainer: Bool {
        switch self {
        case .array, .object: true
        default: false
        }
    }
}
