/// Durations for people, in two spellings of one rounding: whole seconds, then minutes, hours and days, at most
/// two units.
public enum DurationText {
    /// `45 s`, `12 min`, `1 h 30 min`, `2 d 3 h`: for messages (webhooks, dead-letter reasons).
    public static func describe(_ seconds: Double) -> String {
        text(seconds, second: " s", minute: " min", hour: " h", day: " d")
    }

    /// `45s`, `12m`, `1h 30m`, `2d 3h`: for dense text output (`status`, `history`).
    public static func compact(_ seconds: Double) -> String {
        text(seconds, second: "s", minute: "m", hour: "h", day: "d")
    }

    private static func text(_ seconds: Double, second: String, minute: String, hour: String, day: String) -> String {
        let total = Int(max(0, seconds).rounded())
        if total < 60 { return "\(total)\(second)" }
        let minutes = total / 60
        if minutes < 60 { return "\(minutes)\(minute)" }
        let hours = minutes / 60
        if hours < 24 { return minutes % 60 == 0 ? "\(hours)\(hour)" : "\(hours)\(hour) \(minutes % 60)\(minute)" }
        return hours % 24 == 0 ? "\(hours / 24)\(day)" : "\(hours / 24)\(day) \(hours % 24)\(hour)"
    }
}
