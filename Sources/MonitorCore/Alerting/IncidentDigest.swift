import AASA
import Foundation
import MonitorEvaluation

/// One message for people about one domain at one check: what started failing (root cause first), what still
/// fails, what recovered, and what changed.
///
/// Chat receivers (`slack`, `discord`, `teams`) get at most one of these per domain per check instead of one post
/// per alert, in the spirit of Alertmanager's grouping by domain. Findings caused by an alert are listed under it,
/// so a WAF block reads as one problem with Apple's miss beneath it, not as four alerts.
public struct IncidentDigest: Sendable, Hashable, Codable {
    /// One alert in the digest.
    public struct Item: Sendable, Hashable, Codable {
        public var code: FindingCode
        public var source: FindingSource
        public var subject: String
        public var severity: ReportFinding.Severity
        /// For a failing alert, what is wrong; for a recovered one, what is right now.
        public var message: String
        /// Apple's `Apple-Failure-Reason`, when the alert's detail carries one.
        public var appleReason: String?
        /// The findings this alert causes in this check, one line each (`cdn.missing on cdn: …`).
        public var consequences: [String]
        public var reminder: Bool
        /// Set when the alert is (or, recovered, was) flapping: people are told it is held open, and until when.
        /// Absent in digests written before it was kept.
        public var flapping: Flapping?

        public init(
            code: FindingCode, source: FindingSource, subject: String, severity: ReportFinding.Severity,
            message: String,
            appleReason: String? = nil, consequences: [String] = [], reminder: Bool = false,
            flapping: Flapping? = nil
        ) {
            self.code = code
            self.source = source
            self.subject = subject
            self.severity = severity
            self.message = message
            self.appleReason = appleReason
            self.consequences = consequences
            self.reminder = reminder
            self.flapping = flapping
        }

        enum CodingKeys: String, CodingKey {
            case code, source, subject, severity, message, consequences, reminder, flapping
            case appleReason = "apple_reason"
        }
    }

    /// How a flapping alert is held open (`AlertPolicy`'s flap rule), for the words of a chat message.
    public struct Flapping: Sendable, Hashable, Codable {
        /// Firings within the flap window, the last one included; `nil` when not known (a recovered alert).
        public var firings: Int?
        /// The flap window, in seconds.
        public var window: Double?
        /// How long it must pass before it resolves, in seconds.
        public var hold: Double?
        /// While it passes: when it resolves if it keeps passing.
        public var heldUntil: Date?

        public init(firings: Int? = nil, window: Double? = nil, hold: Double? = nil, heldUntil: Date? = nil) {
            self.firings = firings
            self.window = window
            self.hold = hold
            self.heldUntil = heldUntil
        }

        /// The hold of a firing alert that flaps; `nil` when it does not.
        public init?(_ alert: FiringAlert, passingSince: Date? = nil) {
            guard alert.flapping else { return nil }
            self.init(
                firings: alert.recentFirings.count, window: alert.flapWindow, hold: alert.holdPeriod,
                heldUntil: passingSince.flatMap { alert.heldUntil(passingSince: $0) })
        }

        enum CodingKeys: String, CodingKey {
            case firings, window, hold
            case heldUntil = "held_until"
        }
    }

    /// The incident's id: the id of the event that opened it.
    public var incident: String
    /// Alerts that fired at this check, causes before other problems.
    public var started: [Item]
    /// Alerts that were firing before and still are.
    public var stillFailing: [Item]
    public var recovered: [Item]
    /// Informational lines: the origin's change with its first differences, Apple catching up.
    public var notes: [String]

    public init(
        incident: String, started: [Item] = [], stillFailing: [Item] = [], recovered: [Item] = [],
        notes: [String] = []
    ) {
        self.incident = incident
        self.started = started
        self.stillFailing = stillFailing
        self.recovered = recovered
        self.notes = notes
    }

    enum CodingKeys: String, CodingKey {
        case incident, started, recovered, notes
        case stillFailing = "still_failing"
    }

    /// Whether there is anything to tell.
    public var isEmpty: Bool { started.isEmpty && recovered.isEmpty && notes.isEmpty && !hasReminder }

    private var hasReminder: Bool { stillFailing.contains(where: \.reminder) }
}

/// An incident of a domain: from the first alert that fires while none does, to the check where none fires.
public struct OpenIncident: Sendable, Hashable, Codable {
    public var id: String
    public var since: Date

    public init(id: String, since: Date) {
        self.id = id
        self.since = since
    }
}
