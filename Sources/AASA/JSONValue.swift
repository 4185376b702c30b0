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
        return members.last(where: { $0.key == key })?.value
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
