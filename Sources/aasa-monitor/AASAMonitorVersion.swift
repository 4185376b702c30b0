/// The version printed by `--version` and sent in the plain user agent (`aasa-monitor/<version>`).
enum AASAMonitorVersion {
    static let current = "0.1.0"
}
