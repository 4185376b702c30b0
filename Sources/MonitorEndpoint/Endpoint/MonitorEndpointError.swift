import MonitorCore

/// The endpoint could not be started.
public struct MonitorEndpointError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The address it was asked to listen on.
    public var listen: ListenAddress
    /// What happened.
    public var message: String

    public var description: String { "endpoint on \(listen): \(message)" }
}
