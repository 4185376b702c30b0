/// A JSON value exactly as a document spelled it, so that nothing a parser might disagree on is lost.
///
/// Objects keep their members in order, duplicates included, because `aasa.duplicate_key` must be able to say
/// which key repeats and where; numbers keep their literal text, because Apple re-serializes documents and the
/// canonical form has to decide for itself when `1` and `1.0` mean the same.
public indirect enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    /// A number with its literal text as it appeared in the document (e.g. `1e3`).
    case number(String)
    case string(String)
    case array([JSONValue])
    /// Members in document order; a key may appear more than once.
    case object([JSONMember])

    /// The JSON type name used in findings (`"expected array, found string"`).
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    /// The value of `key` in an object; when the key repeats, the last one wins, as with Foundation's
    /// `JSONSerialization`, which Apple's fetcher uses.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last(where: { $0.key.utf8.elementsEqual(key.utf8) })?.value
    }
}

/// One `"key": value` member of a JSON object.
public struct JSONMember: Sendable, Hashable {
    public var key: String
    public var value: JSONValue

    public init(key: String, value: JSONValue) {
        self.key = key
        self.value = value
    }
}

extension JSONMember {
    /// The members with duplicate keys resolved as Foundation's parser (and so Apple) resolves them: the last value
    /// wins. Each key stays at the position of its first occurrence, so findings follow the order a person reads.
    ///
    /// Keys are told apart by their exact UTF-8 bytes, not with Swift's `==`, which treats canonically equivalent
    /// strings (`"\u{E9}"` and `"e\u{301}"`) as equal: Foundation's dictionaries keep those as two keys, so merging
    /// them would give two documents of different meaning one canonical form.
    static func resolved(_ members: [JSONMember]) -> [JSONMember] {
        var firstIndex: [[UInt8]: Int] = [:]
        var result: [JSONMember] = []
        result.reserveCapacity(members.count)
        for member in members {
            let key = Array(member.key.utf8)
            if let index = firstIndex[key] {
                result[index].value = member.value
            } else {
                firstIndex[key] = result.count
                result.append(member)
            }
        }
        return result
    }
}
