import Foundation

/// How messages name the moment Apple's cached answer runs out: "expires …" while it is ahead, "expired … ago"
/// once past. An answer kept beyond its `max-age` never "expires now": it expired when it expired.
public enum CDNExpiry {
    /// `expires 2026-11-26T12:00:00Z (in 2 h)` or `expired 2026-11-26T09:00:00Z (1 h ago)`; `nil` without a date.
    /// `written` writes the time: UTC for messages (JSON and webhooks carry them), `shownTime` for text alone.
    public static func phrase(
        _ expiresAt: Date?, now: Date, written: (Date) -> String = RFC3339.string
    ) -> String? {
        guard let expiresAt else { return nil }
        let seconds = expiresAt.timeIntervalSince(now)
        if seconds > 0 {
            return "expires \(written(expiresAt)) (in \(DurationText.describe(seconds)))"
        }
        return "expired \(written(expiresAt)) (\(DurationText.describe(-seconds)) ago)"
    }

    /// The facts' line for `check`'s text: what Apple holds for the domain and until when. A 404 is no copy, so it
    /// never "expires": Apple's answer that it has none is what is cached.
    public static func summary(_ cdn: CDNFacts, now: Date) -> String? {
        guard let phrase = phrase(cdn.expiresAt ?? cdn.expectedRefresh, now: now, written: \.shownTime) else {
            return nil
        }
        switch cdn.status {
        case 200: return "Apple's copy \(phrase)"
        case 404: return "Apple has no copy; its answer \(phrase)"
        default: return nil
        }
    }
}
