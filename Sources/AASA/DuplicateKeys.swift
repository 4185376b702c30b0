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
                // Keys compare by their bytes, as in `JSONMember.resolved`: "é" and "e\u{301}" are two keys.
                var seen: [[UInt8]: Int] = [:]
                for member in members { seen[Array(member.key.utf8), default: 0] += 1 }
                var reported: Set<[UInt8]> = []
                for member in members {
                    let key = Array(member.key.utf8)
                    let count = seen[key, default: 0]
                    guard count > 1, reported.insert(key).inserted else { continue }
                    findings.append(
                        Finding(
                            code: .aasaDuplicateKey, severity: .warning, path: JSONPath.child(path, member.key),
                            message: "\"\(member.key)\" appears \(count) times in this "
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
