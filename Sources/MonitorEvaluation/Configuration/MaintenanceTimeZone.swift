import Foundation

/// A maintenance window's `timezone`: an IANA name (`Europe/Berlin`, `UTC`) or an explicit offset (`+05:00`).
///
/// `UTC+5` is refused, not guessed: POSIX `TZ=UTC+5` is five hours *behind* UTC, while Foundation (and most
/// readers) take it as ahead, so a window would silence alerts ten hours away from the intended ones (issue 32 §7).
public enum MaintenanceTimeZone {
    public static func parse(_ text: String) -> Result<TimeZone, MaintenanceTimeZoneError> {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let offset = explicitOffset(trimmed) {
            guard let zone = TimeZone(secondsFromGMT: offset) else {
                return .failure(.init(reason: "'\(trimmed)' is not an offset from UTC; the offset is at most 18:00"))
            }
            return .success(zone)
        }
        let upper = trimmed.uppercased()
        if upper.hasPrefix("UTC+") || upper.hasPrefix("UTC-") || upper.hasPrefix("GMT+") || upper.hasPrefix("GMT-") {
            return .failure(
                .init(
                    reason: "'\(trimmed)' is ambiguous (POSIX TZ=UTC+5 is five hours behind UTC, ISO 8601 ahead); "
                        + "write the offset as +05:00 or -05:00, or an IANA name like Asia/Karachi"))
        }
        guard let zone = TimeZone(identifier: trimmed) else {
            return .failure(
                .init(
                    reason: "unknown time zone '\(trimmed)'; use an IANA name like Europe/Berlin or UTC, or an offset "
                        + "like +05:30"))
        }
        return .success(zone)
    }

    /// Seconds east of UTC for `+HH:MM` or `-HH:MM`; `nil` when `text` is not of that form.
    static func explicitOffset(_ text: String) -> Int? {
        let bytes = Array(text.utf8)
        guard bytes.count == 6, bytes[0] == UInt8(ascii: "+") || bytes[0] == UInt8(ascii: "-"),
            bytes[3] == UInt8(ascii: ":"),
            [1, 2, 4, 5].allSatisfy({ bytes[$0] >= 0x30 && bytes[$0] <= 0x39 })
        else { return nil }
        let digit = { (index: Int) in Int(bytes[index] - 0x30) }
        let hours = digit(1) * 10 + digit(2)
        let minutes = digit(4) * 10 + digit(5)
        guard minutes < 60 else { return nil }
        return (hours * 3_600 + minutes * 60) * (bytes[0] == UInt8(ascii: "-") ? -1 : 1)
    }
}

/// Why a `timezone` cannot be used.
public struct MaintenanceTimeZoneError: Error, Sendable, Hashable {
    public var reason: String
}
