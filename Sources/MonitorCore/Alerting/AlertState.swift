import AASA
import Foundation
import MonitorEvaluation

/// The lifecycle of one alert identity (domain, code, source, subject).
///
/// "ok" is the absence of an entry: `AlertStateMachine` never stores an ok alert, so the store only keeps alerts
/// with something to remember. Persisted as JSON by the store (`Codable`, snake_case keys).
public enum AlertState: Sendable, Hashable, Codable {
    /// Failing, but fewer than `failureThreshold` consecutive checks so far; nothing sent yet.
    ///
    /// - failing check → `pending` (count + 1), or `firing` (sends `alert.firing`) at the threshold.
    /// - passing check → `resolved` when recent firings are remembered for flap counting, else ok.
    case pending(alert: PendingAlert)
    /// Fired and notified; failing on every check since.
    ///
    /// - failing check → `firing`; sends `alert.firing` with the new severity when it rose (escalation), or with
    ///   `reminder: true` once `repeatAfter` has passed since the last notification.
    /// - passing check → `resolving` (1 pass), or straight to `resolved` (sends `alert.resolved` when
    ///   `sendResolved`) when `successThreshold` is 1 and the alert is not flapping.
    case firing(alert: FiringAlert)
    /// Fired, and passing for `passes` consecutive checks since `passingSince`, but not yet long enough.
    ///
    /// - failing check → `firing` (no event: it never stopped firing for the receiver).
    /// - passing check → `resolved` (sends `alert.resolved`) once `successThreshold` passes are reached and, for a
    ///   flapping alert, `flapStablePeriod` has passed since `passingSince`; else `resolving` (passes + 1).
    case resolving(alert: FiringAlert, passes: Int, passingSince: Date)
    /// Resolved (ok for the receiver), remembering when it fired recently so that flapping can be recognized.
    ///
    /// - failing check → `pending`, or `firing` at the threshold (flapping if the recent firings reach the limit).
    /// - passing check → `resolved`, or ok once no remembered firing is within `flapWindow`.
    case resolved(at: Date, recentFirings: [Date])

    enum ResolvingCodingKeys: String, CodingKey {
        case alert, passes
        case passingSince = "passing_since"
    }

    enum ResolvedCodingKeys: String, CodingKey {
        case at
        case recentFirings = "recent_firings"
    }

    /// Whether a receiver currently sees this alert as firing (`firing` or `resolving`).
    public var isFiring: Bool {
        switch self {
        case .firing, .resolving: true
        case .pending, .resolved: false
        }
    }

    /// A short name for status output: `pending`, `firing`, `resolving`, `resolved`.
    public var name: String {
        switch self {
        case .pending: "pending"
        case .firing: "firing"
        case .resolving: "resolving"
        case .resolved: "resolved"
        }
    }
}

/// An alert that is failing but has not reached its threshold.
public struct PendingAlert: Sendable, Hashable, Codable {
    /// Consecutive failing checks so far (< failureThreshold).
    public var failures: Int
    /// When the first of those checks ran.
    public var since: Date
    /// Firings within the flap window before this episode, carried over from `resolved`.
    public var recentFirings: [Date]

    public init(failures: Int, since: Date, recentFirings: [Date] = []) {
        self.failures = failures
        self.since = since
        self.recentFirings = recentFirings
    }

    enum CodingKeys: String, CodingKey {
        case failures, since
        case recentFirings = "recent_firings"
    }
}

/// An alert a receiver has been told about, with what the last failing check said.
public struct FiringAlert: Sendable, Hashable, Codable {
    /// When the alert fired (not when it started failing).
    public var since: Date
    /// The severity last notified or seen; a rise is an escalation.
    public var severity: ReportFinding.Severity
    /// The last notification sent (firing, escalation or reminder); reminders count from here.
    public var lastNotifiedAt: Date
    /// The last failing finding's message and detail, so `alert.resolved` can say what was resolved.
    public var message: String
    public var detail: FindingDetail
    /// Firings within the flap window, this one included.
    public var recentFirings: [Date]
    /// Held firing until stable for `flapStablePeriod` (see `AlertPolicy`).
    public var flapping: Bool
    /// For a flapping alert, the policy it is held by: seconds it must pass (`flapStablePeriod`) and the window its
    /// firings were counted in (`flapWindow`), so `status` and chat messages can say until when. Absent when not
    /// flapping, and in states written before they were kept.
    public var holdPeriod: Double?
    public var flapWindow: Double?
    /// `true` while no receiver has been told that it fires: it fired during a silence (`SilenceGate`), which
    /// sends it once when the silence ends, or never if it resolves first. Absent (`nil`) once told.
    public var unsent: Bool?

    public init(
        since: Date, severity: ReportFinding.Severity, lastNotifiedAt: Date, message: String,
        detail: FindingDetail, recentFirings: [Date], flapping: Bool, holdPeriod: Double? = nil,
        flapWindow: Double? = nil
    ) {
        self.since = since
        self.severity = severity
        self.lastNotifiedAt = lastNotifiedAt
        self.message = message
        self.detail = detail
        self.recentFirings = recentFirings
        self.flapping = flapping
        self.holdPeriod = holdPeriod
        self.flapWindow = flapWindow
    }

    enum CodingKeys: String, CodingKey {
        case since, severity
        case lastNotifiedAt = "last_notified_at"
        case message, detail
        case recentFirings = "recent_firings"
        case flapping
        case holdPeriod = "hold_period"
        case flapWindow = "flap_window"
        case unsent
    }

    /// When a flapping alert that passes from `passingSince` on resolves (given enough passing checks); `nil` when
    /// it is not flapping or its hold is unknown.
    public func heldUntil(passingSince: Date) -> Date? {
        guard flapping, let holdPeriod else { return nil }
        return passingSince.addingTimeInterval(holdPeriod)
    }
}
