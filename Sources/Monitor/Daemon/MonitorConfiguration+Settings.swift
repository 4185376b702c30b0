import Foundation
import HTTPEngine
import MonitorCheck
import MonitorCore

extension MonitorConfiguration {
    /// The probe settings this configuration asks for, made where `check`'s are (`ResolvedSettings`).
    var probeSettings: ProbeSettings { ResolvedSettings(self).probe }

    /// The evaluation thresholds this configuration asks for, made where `check`'s are (`ResolvedSettings`).
    var evaluationSettings: EvaluationSettings { ResolvedSettings(self).evaluation }
}
