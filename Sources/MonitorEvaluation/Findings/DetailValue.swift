import Foundation

/// A structured detail value of a finding (the redirect target, the certificate's expiry, Apple's reason).
///
/// Its own small JSON model rather than `Any`, so that details are `Sendable`, comparable in tests, stored as JSON
/// and always encoded by an encoder (never pasted into strings).
public indirect enum DetailValue: Sendable, Hashable, Codable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([DetailValue])
    case object([String: DetailValue])

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([DetailValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: DetailValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        // JSON has no infinity or NaN, and an encoder throws on them: one hostile header must not make a whole
        // report unencodable (and its domain unrecordable). Detail built from outside input never holds them.
        case .double(let value) where !value.isFinite: try container.encodeNil()
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// The string inside, if this is a string.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }
}

/// The structured detail of one finding: keys are `snake_case`, as everywhere in the JSON interface.
public typealias FindingDetail = [String: DetailValue]

extension DetailValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension DetailValue {
    /// `.string(value)` or `.null` when absent, so optional facts keep their key in JSON.
    public static func optional(_ value: String?) -> DetailValue { value.map(DetailValue.string) ?? .null }
    /// `.int(value)` or `.null` when absent.
    public static func optional(_ value: Int?) -> DetailValue { value.map(DetailValue.int) ?? .null }
    /// `.double(value)` or `.null` when absent.
    public static func optional(_ value: Double?) -> DetailValue { value.map(DetailValue.double) ?? .null }
}

extension DetailValue {
    /// A short plain rendering for log fields: strings as they are, numbers and booleans as written, `null` as
    /// `-`, arrays and objects as compact JSON-like text. Never Swift's debug description.
    public var logText: String {
        switch self {
        case .null: "-"
        case .bool(let value): value ? "true" : "false"
        case .int(let value): String(value)
        case .double(let value): value.isFinite ? String(format: "%.3f", value) : "-"
        case .string(let value): value
        case .array(let values): "[" + values.map(\.logText).joined(separator: ",") + "]"
        case .object(let fields):
            "{" + fields.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.logText)" }.joined(separator: ",") + "}"
        }
    }
}

extension DetailValue {
    /// The elements of an array value, `nil` otherwise.
    public var arrayValue: [DetailValue]? {
        if case .array(let values) = self { return values }
        return nil
    }
}
