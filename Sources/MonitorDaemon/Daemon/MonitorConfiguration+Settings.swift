import Foundation
import HTTPEngine
import MonitorCheck
import MonitorCore
import MonitorEvaluation

extension MonitorConfiguration {
    /// The probe settings this configuration asks for, made where `check`'s are (`ResolvedSettings`).
    var probeSettings: ProbeSettings { ResolvedSettings(self).probe }
}
