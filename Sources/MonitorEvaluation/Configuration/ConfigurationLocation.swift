/// Where the configuration file is: `--config`, else `AASA_MONITOR_CONFIG`, else `/etc/aasa-monitor/config.yml`.
public enum ConfigurationLocation {
    /// The path used when neither the flag nor the environment names one.
    public static let defaultPath = "/etc/aasa-monitor/config.yml"
    /// The environment variable that overrides the default path.
    public static let environmentVariable = "AASA_MONITOR_CONFIG"

    /// The configuration path to read: the flag wins, then the environment variable (when not empty), then the
    /// default.
    public static func resolve(flag: String?, environment: [String: String]) -> String {
        if let flag, !flag.isEmpty { return flag }
        if let fromEnvironment = environment[environmentVariable], !fromEnvironment.isEmpty { return fromEnvironment }
        return defaultPath
    }
}
