/// The limits of the probe and evaluation settings, each written once: the configuration file (`ConfigurationBuilder`)
/// and `check`'s flags (`ResolvedSettings`) judge a value against the same entry, so `http.timeout: 11m` and
/// `--timeout 11m` are accepted or refused alike, with the same reason. Only the name differs: each route names the
/// setting as the user typed it, the file by its key (`http.timeout`, with the line), `check` by its flag.
///
/// ```swift
/// switch SettingLimits.timeout.read("11m") {
/// case .success(let timeout): …
/// case .failure(let error): print("--timeout 11m: \(error.reason)")
/// }
/// ```
public enum SettingLimits {
    /// `http.timeout`, `--timeout`: the limit on each origin and CDN request. No maximum: a file that says `11m`
    /// has always run, and the flag follows the file.
    public static let timeout = DurationLimit(key: "http.timeout", flag: "--timeout", minimum: .seconds(1))
    /// `http.concurrency`, `--concurrency`: domains probed at once.
    public static let concurrency = IntegerLimit(key: "http.concurrency", flag: "--concurrency", range: 1...1024)
    /// `http.apple_budget`: how long Apple's fetcher is taken to wait (file only).
    public static let appleBudget = DurationLimit(key: "http.apple_budget", flag: nil, minimum: .seconds(1))
    /// `cdn.stale_after`, `--stale-after`: how long Apple's copy may lag before `cdn.stale` is an error.
    public static let staleAfter = DurationLimit(key: "cdn.stale_after", flag: "--stale-after", minimum: .seconds(1))
    /// `cdn.lone_failure_after` (file only): how long the CDN may fail for one domain alone before it alerts.
    public static let loneFailureAfter = DurationLimit(key: "cdn.lone_failure_after", flag: nil, minimum: .seconds(1))
    /// `tls.expiry_warning`, `--expiry-warning`.
    public static let expiryWarning = DurationLimit(
        key: "tls.expiry_warning", flag: "--expiry-warning", minimum: .zero)
    /// `tls.expiry_critical` (file only).
    public static let expiryCritical = DurationLimit(key: "tls.expiry_critical", flag: nil, minimum: .zero)

    /// Every duration limit, for tests and documentation.
    public static let durations = [timeout, appleBudget, staleAfter, loneFailureAfter, expiryWarning, expiryCritical]
}

/// A duration setting's bounds and its two names.
public struct DurationLimit: Sendable, Hashable {
    /// The configuration key, dotted from the top (`http.timeout`).
    public let key: String
    /// `check`'s flag for it, when there is one (`--timeout`).
    public let flag: String?
    /// No setting has an upper bound beyond what a duration can say (100 years): a file that says `http.timeout:
    /// 11m` has always run, and the flags follow the file.
    public let minimum: Duration

    public init(key: String, flag: String?, minimum: Duration) {
        self.key = key
        self.flag = flag
        self.minimum = minimum
    }

    /// `text` as a duration within the limit; the reason names no setting, the caller does.
    public func read(_ text: String) -> Result<Duration, SettingValueError> {
        SettingValue.duration(text, minimum: minimum)
    }
}

/// A whole-number setting's range and its two names.
public struct IntegerLimit: Sendable, Hashable {
    public let key: String
    public let flag: String?
    public let range: ClosedRange<Int>

    public init(key: String, flag: String?, range: ClosedRange<Int>) {
        self.key = key
        self.flag = flag
        self.range = range
    }

    /// `value` when it is in range; the reason names no setting, the caller does.
    public func check(_ value: Int) -> Result<Int, SettingValueError> {
        guard range.contains(value) else {
            return .failure(
                SettingValueError(
                    reason: "expected a number from \(range.lowerBound) to \(range.upperBound), found \(value)"))
        }
        return .success(value)
    }
}
