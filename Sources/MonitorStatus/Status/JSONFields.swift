import Foundation
import MonitorCore

/// A time that encodes as an RFC 3339 UTC string (`2026-11-21T19:12:03Z`), or `null` when absent.
///
/// The JSON interface wants times as strings and absent facts as explicit `null`s, whatever date strategy the
/// encoder has.
@propertyWrapper
package struct RFC3339Time: Sendable, Hashable, Encodable {
    package var wrappedValue: Date?

    package init(wrappedValue: Date?) { self.wrappedValue = wrappedValue }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue { try container.encode(wrappedValue.rfc3339) } else { try container.encodeNil() }
    }
}

/// An optional value that encodes as `null` when absent instead of leaving its key out.
@propertyWrapper
package struct NullWhenAbsent<Value: Encodable & Sendable & Hashable>: Sendable, Hashable, Encodable {
    package var wrappedValue: Value?

    package init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
    }
}

/// A coding key made at run time, for objects whose keys come from data (a timeline event's detail).
struct DynamicCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
