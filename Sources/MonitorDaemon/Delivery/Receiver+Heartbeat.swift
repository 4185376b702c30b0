import Foundation
import MonitorCore
import MonitorEvaluation

extension Receiver {
    /// The heartbeat as a receiver: the same address guard, trust, timeout and URL-hiding as a webhook. `url` is the
    /// ping's (the configured URL, or its `/fail` form).
    init(heartbeat: HeartbeatConfiguration, url: String) {
        self.kind = "heartbeat"
        self.name = "heartbeat"
        self.url = url
        self.allowPrivate = heartbeat.allowPrivate
        self.caFile = heartbeat.caFile
        self.timeout = heartbeat.timeout
    }
}
