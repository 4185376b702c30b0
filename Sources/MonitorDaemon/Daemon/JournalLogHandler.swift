import Foundation
import Logging
import MonitorCore
import MonitorEvaluation
import Synchronization

/// Writes one line per log event to standard error, prefixed with its syslog priority (`<3>` … `<7>`), which
/// journald reads as the entry's level (sd-daemon(3), `SyslogLevelPrefix=` in systemd.exec(5)).
///
/// Written by hand because swift-log's `StreamLogHandler` prints a timestamp journald adds anyway and no priority,
/// so every line would land in the journal as `info`. On a terminal (`prefixes: false`) each line starts with the
/// time (UTC, as every date the tool prints) and the level spelled out: nothing else would date it there.
/// Fields are `key=value` with stable keys; repeated lines of one kind are held back by `LogRateLimiter`.
package struct JournalLogHandler: LogHandler {
    package var metadata: Logger.Metadata = [:]
    package var logLevel: Logger.Level
    private let label: String
    private let prefixes: Bool
    /// One limiter for the process, and its lock also keeps lines from interleaving.
    private static let output = Mutex(LogRateLimiter())

    package init(label: String, level: Logger.Level = .info, prefixes: Bool) {
        self.label = label
        self.logLevel = level
        self.prefixes = prefixes
    }

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    package func log(event: LogEvent) {
        var fields = metadata
        if let extra = event.metadata { fields.merge(extra) { _, new in new } }
        let values = fields.mapValues { "\($0)" }
        let rendered = Self.fields(values)
        let message = "\(event.message)".replacingOccurrences(of: "\n", with: " ⏎ ")
        let level = prefixes ? "<\(Self.priority(event.level))>" : "\(event.level.rawValue.uppercased()) "
        let head = level + "\(label): \(message)"
        let kind = LogRateLimiter.kind(label: label, level: event.level.rawValue, message: message, fields: values)
        let stable = values.filter { !LogRateLimiter.volatileFields.contains($0.key) }
        Self.output.withLock { limiter in
            let admission = limiter.admit(
                kind: kind,
                summary: (head, Self.fields(stable)),
                now: Date())
            var lines = admission.summaries
            if admission.write { lines.append(head + rendered) }
            guard !lines.isEmpty else { return }
            let time = prefixes ? "" : RFC3339.string(Date()) + " "
            FileHandle.standardError.write(Data(lines.map { time + $0 + "\n" }.joined().utf8))
        }
    }

    /// Writes the counts of lines still held back; the daemon calls it last, so a flood just before the stop is
    /// still counted in the journal.
    package static func flush() {
        // The same rule as `bootstrap`: the time only where journald does not add it.
        let time = ProcessInfo.processInfo.environment["JOURNAL_STREAM"] == nil ? RFC3339.string(Date()) + " " : ""
        output.withLock { limiter in
            let text = limiter.drain().map { time + $0 + "\n" }.joined()
            if !text.isEmpty { FileHandle.standardError.write(Data(text.utf8)) }
        }
    }

    /// ` key=value` for each field, sorted by key.
    private static func fields(_ values: [String: String]) -> String {
        values.sorted { $0.key < $1.key }.map { " \($0.key)=\(quoted($0.value))" }.joined()
    }

    /// Values with spaces, quotes or newlines are quoted, so each event stays one parseable line.
    private static func quoted(_ value: String) -> String {
        guard value.isEmpty || value.contains(where: { $0 == " " || $0 == "\"" || $0 == "\n" || $0 == "=" }) else {
            return value
        }
        let escaped = value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n")
        return "\"\(escaped)\""
    }

    private static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }

    /// Bootstraps swift-log once: priority prefixes when journald reads the output (`JOURNAL_STREAM` is set).
    package static func bootstrap(level: Logger.Level, environment: [String: String]) {
        let prefixes = environment["JOURNAL_STREAM"] != nil
        LoggingSystem.bootstrap { label in JournalLogHandler(label: label, level: level, prefixes: prefixes) }
    }
}
