import Foundation

/// RFC 3339 UTC timestamps (`2026-11-21T19:12:03Z`), the one time format of the JSON interface.
public enum RFC3339 {
    /// The timestamp of `date`, whole seconds, UTC.
    public static func string(_ date: Date) -> String {
        date.formatted(.iso8601)
    }

    /// Parses an ISO 8601 UTC time such as `string(_:)` writes.
    public static func date(_ text: String) -> Date? {
        try? Date(text, strategy: .iso8601)
    }
}
