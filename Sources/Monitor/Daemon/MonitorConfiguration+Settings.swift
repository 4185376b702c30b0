import Foundation
import HTTPEngine

extension MonitorConfiguration {
    /// The probe settings this configuration asks for. `connect_to` entries were validated when the file was
    /// loaded; one that still fails to parse is skipped rather than stopping the daemon.
    var probeSettings: ProbeSettings {
        ProbeSettings(
            version: MonitorVersion.current, cdnBaseURL: cdn.baseURL, timeout: http.timeout,
            connectTo: http.connectTo.compactMap { try? ConnectToRule(parsing: $0) },
            trust: http.caFile.map { .systemAnd(extraCAFile: $0) } ?? .system, concurrency: http.concurrency)
    }

    /// The evaluation thresholds this configuration asks for.
    var evaluationSettings: EvaluationSettings {
        EvaluationSettings(
            expiryWarning: tls.expiryWarning.seconds, staleAfter: cdn.staleAfter.seconds,
            appleBudget: http.appleBudget.seconds, expiryCritical: tls.expiryCritical.seconds)
    }
}

/// The version the daemon reports in its plain user agent, its heartbeat and its logs.
public enum MonitorVersion {
    public static let current = "0.2.0"
}
