import Foundation
import MonitorEvaluation

/// A domain's history with each alert a silence held shown where it fired, saying when it went out.
///
/// The ledger records a held firing when it happens (`sent: false`, `silenced`) and its sending when the silence is
/// over, as an `alert.firing` with `held_since` (`DomainLedger.alertTimeline`); the timeline cannot change a row
/// already written. Read together, the firing gets `sent_at` and the later row goes, so `history` says at the
/// firing "not sent (silenced …), sent at …" (issue 35 item 18). A sending whose firing is older than the events
/// read (`--limit`) stays a row of its own.
public enum HeldAlerts {
    /// `events`, oldest first, with each held firing given the time it was sent and that sending's row removed.
    public static func folded(_ events: [TimelineEvent]) -> [TimelineEvent] {
        var folded: [TimelineEvent] = []
        // The first held firing of each alert not yet sent or resolved, by its index in `folded`.
        var waiting: [String: Int] = [:]
        for event in events {
            guard let key = key(event) else {
                folded.append(event)
                continue
            }
            if event.kind == .alertFiring, event.detail["held_since"] != nil {
                if let index = waiting.removeValue(forKey: key) {
                    folded[index].detail["sent_at"] = .time(event.at)
                    continue
                }
            } else if event.kind == .alertResolved {
                waiting[key] = nil
            } else if event.detail["sent"] == .bool(false), event.detail["silenced"] != nil, waiting[key] == nil {
                waiting[key] = folded.count
            }
            folded.append(event)
        }
        return folded
    }

    /// An alert event's identity (code, source, subject); `nil` for other events.
    private static func key(_ event: TimelineEvent) -> String? {
        guard event.kind == .alertFiring || event.kind == .alertResolved else { return nil }
        return [event.detail["code"], event.detail["source"], event.detail["subject"]]
            .map { $0?.stringValue ?? "" }.joined(separator: "\u{0}")
    }
}
