import Foundation

extension Duration {
    /// The duration in seconds, for arithmetic with `Date` (configuration durations are `Duration`).
    public var seconds: TimeInterval {
        TimeInterval(components.seconds) + TimeInterval(components.attoseconds) / 1e18
    }
}
