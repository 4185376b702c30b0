/// An ordered list of HTTP header fields with case-insensitive lookup.
///
/// HTTP allows a field to repeat (`Link`, `Set-Cookie`, `Vary`), and its names are case-insensitive (RFC 9110 §5.1),
/// so this keeps every field in arrival order and compares names without regard to ASCII case. HTTP/2 servers send
/// lower-case names; HTTP/1.1 servers send whatever they like.
///
/// ```swift
/// var headers: HTTPHeaders = ["Content-Type": "application/json"]
/// headers.append("X-Trace", "1")
/// headers["content-type"]          // ["application/json"]
/// headers.first("CONTENT-TYPE")    // "application/json"
/// ```
public struct HTTPHeaders: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    /// One header field as it arrived or will be sent.
    public struct Field: Sendable, Hashable {
        /// The name as written on the wire.
        public var name: String
        /// The value with surrounding whitespace removed.
        public var value: String

        /// Creates a field.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// All fields in order.
    public private(set) var fields: [Field]

    /// Creates an empty list.
    public init() {
        self.fields = []
    }

    /// Creates a list from fields in order.
    public init(_ fields: [Field]) {
        self.fields = fields
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        self.fields = elements.map { Field(name: $0.0, value: $0.1) }
    }

    /// Adds a field at the end, keeping any earlier field of the same name.
    public mutating func append(_ name: String, _ value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Appends `text` to the last field's value in place (an obsolete folded header line); no-op when empty.
    mutating func appendToLastValue(_ text: String) {
        guard !fields.isEmpty else { return }
        fields[fields.count - 1].value += text
    }

    /// Removes every field with this name (any case).
    public mutating func remove(_ name: String) {
        fields.removeAll { Self.namesMatch($0.name, name) }
    }

    /// Every value of the fields with this name (any case), in arrival order; empty when absent.
    public subscript(name: String) -> [String] {
        fields.filter { Self.namesMatch($0.name, name) }.map(\.value)
    }

    /// The first value of the field with this name (any case).
    public func first(_ name: String) -> String? {
        fields.first { Self.namesMatch($0.name, name) }?.value
    }

    /// Whether a field with this name (any case) is present.
    public func contains(_ name: String) -> Bool {
        fields.contains { Self.namesMatch($0.name, name) }
    }

    /// The number of fields.
    public var count: Int { fields.count }

    public func makeIterator() -> IndexingIterator<[Field]> {
        fields.makeIterator()
    }

    /// ASCII case-insensitive comparison: header names are tokens, so no Unicode folding is needed.
    static func namesMatch(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf8.count == rhs.utf8.count && lhs.utf8.elementsEqual(rhs.utf8) { asciiLower($0) == asciiLower($1) }
    }

    private static func asciiLower(_ byte: UInt8) -> UInt8 {
        (byte >= 0x41 && byte <= 0x5A) ? byte | 0x20 : byte
    }
}
