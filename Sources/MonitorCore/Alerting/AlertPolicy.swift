/// When an alert fires, reminds, resolves and counts as flapping: the `alerts:` settings of one domain.
///
/// Defaults follow issue 6: two failing checks before firing (one bad answer is often a blip), one passing check
/// before resolving, a reminder every 24 h, resolves sent.
///
/// Flapping rule: an alert that fires `flapLimit` times (default 3) within `flapWindow` (default 1 h) is flapping.
/// That firing is still sent, marked `flapping: true`; from then on the alert is held firing — passing checks do
/// not resolve it until it has passed continuously for `flapStablePeriod` (default 1 h) and `successThreshold`
/// checks. Receivers thus see at most `flapLimit` firings and `flapLimit − 1` resolves per window, then silence
/// until the problem is really gone.
public struct AlertPolicy: Sendable, Hashable, Codable {
    /// Consecutive failing checks before an alert fires (≥ 1).
    public var failureThreshold: Int
    /// Consecutive passing checks before a firing alert resolves (≥ 1).
    public var successThreshold: Int
    /// Seconds between reminders while an alert stays firing; 0 = never remind.
    public var repeatAfter: Double
    /// Whether `alert.resolved` events are emitted (the state resolves either way).
    public var sendResolved: Bool
    /// Seconds in which `flapLimit` firings make an alert flapping.
    public var flapWindow: Double
    /// Firings within `flapWindow` that make an alert flapping; 0 turns flap damping off.
    public var flapLimit: Int
    /// Seconds a flapping alert must pass continuously before it resolves.
    public var flapStablePeriod: Double

    public init(
        failureThreshold: Int = 2,
        successThreshold: Int = 1,
        repeatAfter: Double = 86_400,
        sendResolved: Bool = true,
        flapWindow: Double = 3_600,
        flapLimit: Int = 3,
        flapStablePeriod: Double = 3_600
    ) {
        self.failureThreshold = max(1, failureThreshold)
        self.successThreshold = max(1, successThreshold)
        self.repeatAfter = max(0, repeatAfter)
        self.sendResolved = sendResolved
        self.flapWindow = max(0, flapWindow)
        self.flapLimit = max(0, flapLimit)
        self.flapStablePeriod = max(0, flapStablePeriod)
    }

    enum CodingKeys: String, CodingKey {
        case failureThreshold = "failure_threshold"
        case successThreshold = "success_threshold"
        case repeatAfter = "repeat_after"
        case sendResolved = "send_resolved"
        case flapWindow = "flap_window"
        case flapLimit = "flap_limit"
        case flapStablePeriod = "flap_stable_period"
    }
}
