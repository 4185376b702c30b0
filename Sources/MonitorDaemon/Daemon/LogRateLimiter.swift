import Foundation

/// Keeps one recurring problem from flooding the journal: of each kind of line, the first `burst` in a window are
/// written and the rest are counted; when the window ends one line says how many were held back
/// (`delivery failed, will retry repeated 120 more times in the last minute webhook=ops …`).
///
/// A kind is the label, level, message and every field except `volatileFields`: two lines that differ only in
/// an attempt number, a delivery id, a timestamp or an error's wording (libcurl puts elapsed milliseconds in its
/// texts) are the same problem. A domain's name or a webhook's name is not volatile, so one domain's trouble never
/// hides another's. The count of held-back lines is written by the next log call after the window ended.
package struct LogRateLimiter: Sendable {
    /// Lines of one kind written per window.
    package var burst: Int
    /// The window's length in seconds.
    package var window: TimeInterval
    private var entries: [String: Entry] = [:]
    private var lastSweep = Date.distantPast

    /// Fields that differ between occurrences of one problem.
    package static let volatileFields: Set<String> = [
        "attempt", "delivery_id", "next_attempt", "error", "duration", "retry_in", "count", "event", "status",
    ]

    /// The kind of a line: what stays the same while one problem recurs. A line about a webhook is about its
    /// receiver, so its domain is volatile too: fifty domains' alerts failing at one dead receiver are one problem.
    package static func kind(label: String, level: String, message: String, fields: [String: String]) -> String {
        let ignored = fields["webhook"] == nil ? volatileFields : volatileFields.union(["domain"])
        let stable = fields.filter { !ignored.contains($0.key) }.sorted { $0.key < $1.key }
        return ([label, level, message] + stable.map { "\($0.key)=\($0.value)" }).joined(separator: "\u{1F}")
    }

    /// The most kinds remembered: a flood of distinct lines cannot grow the table without end.
    static let maximumKinds = 10_000

    struct Entry: Sendable {
        var start: Date
        var count: Int
        /// The line that reports held-back lines: `head` + ` repeated N more times in the last minute` + `tail`.
        var summary: (head: String, tail: String)

        func summaryLine(burst: Int) -> String {
            "\(summary.head) repeated \(count - burst) more times in the last minute\(summary.tail)"
        }
    }

    package init(burst: Int = 5, window: TimeInterval = 60) {
        self.burst = max(1, burst)
        self.window = max(1, window)
    }

    /// Whether a line of `kind` may be written at `now`, and the held-back counts of ended windows to write first.
    ///
    /// - Parameter summary: the line that reports held-back lines of this kind: the count goes between `head`
    ///   (label and message) and `tail` (the fields).
    package mutating func admit(
        kind: String, summary: @autoclosure () -> (head: String, tail: String), now: Date
    ) -> (write: Bool, summaries: [String]) {
        var summaries = sweep(now: now)
        if var entry = entries[kind] {
            if now.timeIntervalSince(entry.start) < window {
                entry.count += 1
                entries[kind] = entry
                return (entry.count <= burst, summaries)
            }
            if entry.count > burst { summaries.append(entry.summaryLine(burst: burst)) }
        }
        if entries.count >= Self.maximumKinds { entries = entries.filter { $0.value.count > burst } }
        entries[kind] = Entry(start: now, count: 1, summary: summary())
        return (true, summaries)
    }

    /// Ends every window now (at exit): the held-back counts, so none is lost with the process.
    package mutating func drain() -> [String] {
        defer { entries.removeAll() }
        return entries.values.filter { $0.count > burst }.map { $0.summaryLine(burst: burst) }
    }

    /// Ends the windows that are over (at most once a second): their held-back counts, and forgets them.
    private mutating func sweep(now: Date) -> [String] {
        guard now.timeIntervalSince(lastSweep) >= 1 else { return [] }
        lastSweep = now
        var summaries: [String] = []
        for (kind, entry) in entries where now.timeIntervalSince(entry.start) >= window {
            if entry.count > burst { summaries.append(entry.summaryLine(burst: burst)) }
            entries[kind] = nil
        }
        return summaries
    }
}
