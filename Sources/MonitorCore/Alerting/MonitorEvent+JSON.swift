import AASA
import Foundation
import MonitorEvaluation

/// An event as JSON: the flat object of every earlier version, so the outbox keeps its rows' text and receivers
/// their bodies byte for byte.
///
/// Each kind writes its own fields and a fixed value for the fields it has not (an `origin.changed`'s code is its
/// type, a test's severity `info`); the texts that follow from a kind's fields (a propagation's sentence, a digest's
/// summary line) are worded here, once. A row is read back by its `type`, each kind from the keys it needs, so rows
/// written before `incident`, `consequences` or `digest` were kept still read.
struct EventFields {
    var code = ""
    var severity = ReportFinding.Severity.info
    var source: FindingSource?
    var subject = ""
    var message = ""
    var detail: FindingDetail = [:]
    var verdict: Verdict?
    var diff: DocumentDiff?
    var reminder = false
    var flapping = false
    var incident: String?
    var consequences: [String] = []
    var digest: IncidentDigest?

    init(_ payload: MonitorEvent.Payload) {
        switch payload {
        case .alertFiring(let alert, let reminder, let consequences):
            take(alert)
            self.reminder = reminder
            self.consequences = consequences
        case .alertResolved(let alert):
            take(alert)
        case .originChanged(let diff, let verdict):
            code = MonitorEvent.Kind.originChanged.rawValue
            severity = .info
            source = .wellKnown
            message = Self.originChangeMessage(diff)
            detail = [
                "hash_before": .string(diff.hashA), "hash_after": .string(diff.hashB),
                "can_change_behavior": .bool(diff.canChangeBehavior),
            ]
            self.verdict = verdict
            self.diff = diff
        case .cdnPropagated(let delaySeconds, let hash, let verdict):
            code = MonitorEvent.Kind.cdnPropagated.rawValue
            severity = .info
            source = .cdn
            message = Self.propagationMessage(delaySeconds: delaySeconds)
            detail = ["delay_seconds": .double(delaySeconds), "hash": .string(hash)]
            self.verdict = verdict
        case .incident(let digest, let verdict):
            // Code, source and subject of the lead item and the worst severity: a chat's colour and title.
            let lead = digest.lead
            code = lead?.code.id ?? MonitorEvent.Kind.incident.rawValue
            severity = digest.worstSeverity
            source = lead?.source
            subject = lead?.subject ?? ""
            message = digest.summary
            self.verdict = verdict
            incident = digest.incident.isEmpty ? nil : digest.incident
            self.digest = digest
        case .monitorFiring(let condition):
            code = condition.code.id
            severity = .error
            message = condition.message
            detail = ["since": .string(RFC3339.string(condition.since))]
        case .monitorResolved(let condition, let since):
            code = condition.id
            severity = .error
            message = "Resolved: \(condition) since \(RFC3339.string(since)) is over."
            detail = ["since": .string(RFC3339.string(since))]
        case .test:
            code = MonitorEvent.Kind.test.rawValue
            severity = .info
            message = "Test event from aasa-monitor: this webhook is configured correctly."
            detail = ["test": true]
        }
    }

    /// The `message` of an `origin.changed`: how many changes, and how many can change what devices do.
    static func originChangeMessage(_ diff: DocumentDiff) -> String {
        let behavioural = diff.changes.filter(\.affectsBehavior).count
        return "The origin's association file changed meaning: \(diff.changes.count) change(s), "
            + "\(behavioural) of which can change what devices do."
    }

    /// The `message` of a `cdn.propagated`.
    static func propagationMessage(delaySeconds: Double) -> String {
        "Apple's CDN caught up with the origin after \(DurationText.describe(delaySeconds))."
    }

    private mutating func take(_ alert: MonitorEvent.Alert) {
        code = alert.code.id
        severity = alert.severity
        source = alert.source
        subject = alert.subject
        message = alert.message
        detail = alert.detail
        verdict = alert.verdict
        flapping = alert.flapping
        incident = alert.incident
    }
}

extension MonitorEvent: Codable {
    enum CodingKeys: String, CodingKey {
        case id, type
        case occurredAt = "occurred_at"
        case domain, code, severity, source, subject, message, detail, verdict, diff, reminder, flapping
        case incident, consequences, digest
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        occurredAt = try container.decode(Date.self, forKey: .occurredAt)
        domain = try container.decode(String.self, forKey: .domain)
        let verdict = try container.decodeIfPresent(Verdict.self, forKey: .verdict)
        switch try container.decode(Kind.self, forKey: .type) {
        case .alertFiring:
            payload = .alertFiring(
                try Self.alert(container), reminder: try container.decode(Bool.self, forKey: .reminder),
                consequences: try container.decodeIfPresent([String].self, forKey: .consequences) ?? [])
        case .alertResolved:
            payload = .alertResolved(try Self.alert(container))
        case .originChanged:
            payload = .originChanged(diff: try container.decode(DocumentDiff.self, forKey: .diff), verdict: verdict)
        case .cdnPropagated:
            let detail = try container.decode(FindingDetail.self, forKey: .detail)
            // JSON has one kind of number: a whole delay reads back as an integer.
            let delay: Double? =
                switch detail["delay_seconds"] {
                case .double(let seconds)?: seconds
                case .int(let seconds)?: Double(seconds)
                default: nil
                }
            guard let delay, let hash = detail["hash"]?.stringValue else {
                throw DecodingError.dataCorruptedError(
                    forKey: .detail, in: container, debugDescription: "cdn.propagated without delay_seconds and hash")
            }
            payload = .cdnPropagated(delaySeconds: delay, hash: hash, verdict: verdict)
        case .incident:
            payload = .incident(try container.decode(IncidentDigest.self, forKey: .digest), verdict: verdict)
        case .monitorFiring:
            payload = .monitorFiring(
                MonitorConditions.Condition(
                    code: try container.decode(FindingCode.self, forKey: .code), since: occurredAt,
                    message: try container.decode(String.self, forKey: .message)))
        case .monitorResolved:
            let detail = try container.decode(FindingDetail.self, forKey: .detail)
            guard let since = detail["since"]?.stringValue.flatMap(RFC3339.date) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .detail, in: container, debugDescription: "monitor.resolved without since")
            }
            payload = .monitorResolved(code: try container.decode(FindingCode.self, forKey: .code), since: since)
        case .test:
            payload = .test
        }
    }

    private static func alert(_ container: KeyedDecodingContainer<CodingKeys>) throws -> Alert {
        Alert(
            code: try container.decode(FindingCode.self, forKey: .code),
            source: try container.decode(FindingSource.self, forKey: .source),
            subject: try container.decodeIfPresent(String.self, forKey: .subject) ?? "",
            severity: try container.decode(ReportFinding.Severity.self, forKey: .severity),
            message: try container.decode(String.self, forKey: .message),
            detail: try container.decodeIfPresent(FindingDetail.self, forKey: .detail) ?? [:],
            verdict: try container.decodeIfPresent(Verdict.self, forKey: .verdict),
            flapping: try container.decodeIfPresent(Bool.self, forKey: .flapping) ?? false,
            incident: try container.decodeIfPresent(String.self, forKey: .incident))
    }

    /// Every field, an absent optional one left out (as the outbox has always stored events).
    public func encode(to encoder: any Encoder) throws {
        let fields = EventFields(payload)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(type, forKey: .type)
        try container.encode(occurredAt, forKey: .occurredAt)
        try container.encode(domain, forKey: .domain)
        try container.encode(fields.code, forKey: .code)
        try container.encode(fields.severity, forKey: .severity)
        try container.encodeIfPresent(fields.source, forKey: .source)
        try container.encode(fields.subject, forKey: .subject)
        try container.encode(fields.message, forKey: .message)
        try container.encode(fields.detail, forKey: .detail)
        try container.encodeIfPresent(fields.verdict, forKey: .verdict)
        try container.encodeIfPresent(fields.diff, forKey: .diff)
        try container.encode(fields.reminder, forKey: .reminder)
        try container.encode(fields.flapping, forKey: .flapping)
        try container.encodeIfPresent(fields.incident, forKey: .incident)
        try container.encode(fields.consequences, forKey: .consequences)
        try container.encodeIfPresent(fields.digest, forKey: .digest)
    }
}
