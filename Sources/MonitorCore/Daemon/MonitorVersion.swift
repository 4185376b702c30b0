/// The version the daemon reports in its plain user agent, its heartbeat and its logs.
public enum MonitorVersion {
    public static let current = "0.2.0"
}
