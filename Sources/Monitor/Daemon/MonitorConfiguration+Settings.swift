import Foundation
import HTTPEngine
import MonitorCore

extension MonitorConfiguration {
    /// The probe settings this configuration asks for, made where `check`'s are (`ResolvedSettings`).
    var probeSettings: ProbeSettings { ResolvedSettings(self).probe }

    /// The evaluation thresholds this configuration asks for, made where `check`'s are (`ResolvedSettings`).
    var evaluationSettings: EvaluationSettings { ResolvedSettings(self).evaluation }
}

/// The version the daemon reports in its plain user agent, its heartbeat and its logs.
public enum MonitorVersion {
    public static let current = "0.2.0"
}
