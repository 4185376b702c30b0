import Foundation
import MonitorCore
import MonitorEvaluation

/// What `history` says of an alert event receivers were not told of when it happened (`DomainLedger.alertTimeline`,
/// `HeldAlerts`), in words after its detail:
///
/// - `not sent (silenced until … by alice: reason), sent at …`: a firing a silence held, sent when it ended;
/// - `not sent (silenced until … by alice: reason)`: held still, or dropped (it resolved inside the silence, or
///   rose in severity while receivers had already been told it fires);
/// - `not sent (no receiver was told it fired)`: the resolution of such a firing;
/// - `sent after a silence (fired …)`: the sending of a firing older than the events shown.
extension HistoryText {
    /// The detail keys said in words rather than as `key=value`.
    static let sendingKeys: Set<String> = ["sent", "silenced", "sent_at", "held_since"]

    static func sending(_ event: TimelineEvent) -> [String] {
        if let firedAt = event.detail["held_since"] {
            return ["sent after a silence (fired \(time(firedAt)))"]
        }
        guard event.detail["sent"] == .bool(false) else { return [] }
        guard case .object(let silence)? = event.detail["silenced"] else {
            return [event.kind == .alertResolved ? "not sent (no receiver was told it fired)" : "not sent"]
        }
        let held = Silence.text(
            until: silence["until"].map(time) ?? "-", author: silence["by"]?.stringValue ?? "-",
            reason: silence["reason"]?.stringValue ?? "-")
        let sent = event.detail["sent_at"].map { ", sent at \(time($0))" } ?? ""
        return ["not sent (\(held))\(sent)"]
    }

    /// A stored RFC 3339 time as the rest of the line writes times (`shownTime`).
    private static func time(_ value: DetailValue) -> String {
        guard let text = value.stringValue else { return "-" }
        return RFC3339.date(text)?.shownTime ?? text
    }
}
