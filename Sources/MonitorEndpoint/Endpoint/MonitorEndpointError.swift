import MonitorCore
import MonitorEvaluation

/// The endpoint could not be started.
package struct MonitorEndpointError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The address it was asked to listen on.
    package var listen: ListenAddress
    /// What happened.
    package var message: String

    package var description: String { "endpoint on \(listen): \(message)" }
}
