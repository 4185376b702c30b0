import Foundation

/// The one reader of setting values that the configuration file and command-line flags share, so `http.timeout`
/// and `--timeout`, `cdn.base_url` and `--cdn-base` accept the same text and refuse it with the same reason.
///
/// ```swift
/// switch SettingValue.duration("3s") {
/// case .success(let timeout): …
/// case .failure(let error): print("--timeout 3s: \(error.reason)")
/// }
/// ```
public enum SettingValue {
    /// The longest duration `duration(_:)` accepts (100 years); a silence's `ends_at` is held to it too.
    public static let longestDuration: Duration = .seconds(ConfigurationDuration.longest)

    /// A duration such as `30s`, `15m`, `1d` or `1h30m` of at least `minimum`; a bare number is refused because
    /// `15` could mean seconds or minutes.
    public static func duration(_ text: String, minimum: Duration = .seconds(1)) -> Result<Duration, SettingValueError>
    {
        if text.trimmingBlanks().hasPrefix("-") {
            return .failure(SettingValueError(reason: "a duration cannot be negative"))
        }
        switch ConfigurationDuration.parse(text) {
        case .failure(let error):
            return .failure(SettingValueError(reason: error.reason))
        case .success(let duration) where duration < minimum:
            return .failure(SettingValueError(reason: "must be at least \(ConfigurationDuration.text(minimum))"))
        case .success(let duration):
            return .success(duration)
        }
    }

    /// Apple's CDN base URL: https, with a host, without query or fragment; returned ending in `/`.
    public static func cdnBaseURL(_ text: String) -> Result<String, SettingValueError> {
        guard let components = URLComponents(string: text), components.scheme?.lowercased() == "https",
            let host = components.host, !host.isEmpty, components.query == nil, components.fragment == nil,
            components.user == nil, components.password == nil
        else {
            return .failure(
                SettingValueError(
                    reason: "expected an https URL without query or fragment, like \(CDNSettings.defaultBaseURL)"))
        }
        return .success(text.hasSuffix("/") ? text : text + "/")
    }

    /// `15m`, `1h30m`, `14d`: how the configuration writes `duration`.
    public static func text(_ duration: Duration) -> String { ConfigurationDuration.text(duration) }
}

/// Why a setting's text was refused; the caller adds where it came from (`file:line: key:` or `--flag VALUE:`).
public struct SettingValueError: Error, Sendable, Hashable, CustomStringConvertible {
    public var reason: String

    public init(reason: String) {
        self.reason = reason
    }

    public var description: String { reason }
}
