import Foundation
import Yams

/// The `maintenance` section: recurring windows that act as silences (`MaintenanceWindow`), as Gatus's
/// `maintenance` has them, with a name and optionally the domains.
extension ConfigurationBuilder {
    static let maintenanceKeys = ["name", "days", "start", "duration", "timezone", "domains"]

    mutating func maintenance(_ node: Node, path: ConfigurationPath, knownDomains: Set<String>) -> [MaintenanceWindow] {
        guard let items = reader.list(node, path: path) else { return [] }
        var windows: [MaintenanceWindow] = []
        for (index, item) in items.enumerated() {
            let itemPath = path.index(index)
            guard let fields = reader.fields(of: item, path: itemPath, allowed: Self.maintenanceKeys) else { continue }
            var valid = true
            var name = String(index + 1)
            if let value = fields["name"], let text = reader.string(value, path: itemPath.key("name")) {
                if windows.contains(where: { $0.name == text }) {
                    reader.report("another window is already named '\(text)'", at: value, path: itemPath.key("name"))
                    valid = false
                }
                name = text
            }
            var startMinute = 0
            if let value = fields["start"] {
                if let minute = Self.clockMinute(value) {
                    startMinute = minute
                } else {
                    reader.report(
                        "expected a time of day like \"23:00\", found \(ConfigurationReader.describe(value))",
                        at: value, path: itemPath.key("start"))
                    valid = false
                }
            } else {
                reader.report("a window needs a start, like start: \"23:00\"", at: item, path: itemPath.key("start"))
                valid = false
            }
            var duration = Duration.zero
            if let value = fields["duration"],
                let parsed = reader.duration(value, path: itemPath.key("duration"), minimum: .seconds(60))
            {
                duration = parsed
                if parsed > MaintenanceWindow.longest {
                    reader.report(
                        "a window lasts at most 7d, or it overlaps its next week", at: value,
                        path: itemPath.key("duration"))
                    valid = false
                }
            } else {
                if fields["duration"] == nil {
                    reader.report("a window needs a duration, like 1h", at: item, path: itemPath.key("duration"))
                }
                valid = false
            }
            var timeZone = TimeZone(secondsFromGMT: 0)!
            if let value = fields["timezone"], let text = reader.string(value, path: itemPath.key("timezone")) {
                switch MaintenanceTimeZone.parse(text) {
                case .success(let zone): timeZone = zone
                case .failure(let problem):
                    reader.report(problem.reason, at: value, path: itemPath.key("timezone"))
                    valid = false
                }
            }
            var days: Set<MaintenanceWindow.Day> = []
            if let value = fields["days"], let list = reader.list(value, path: itemPath.key("days")) {
                for (dayIndex, dayNode) in list.enumerated() {
                    let dayPath = itemPath.key("days").index(dayIndex)
                    guard let text = reader.string(dayNode, path: dayPath) else { continue }
                    guard let day = MaintenanceWindow.Day(rawValue: text.lowercased()) else {
                        let names = MaintenanceWindow.Day.allCases.map(\.rawValue).joined(separator: ", ")
                        reader.report("'\(text)' is not a day; expected one of \(names)", at: dayNode, path: dayPath)
                        valid = false
                        continue
                    }
                    days.insert(day)
                }
            }
            var domains: [String]?
            if let value = fields["domains"] {
                domains = configuredDomains(value, path: itemPath.key("domains"), knownDomains: knownDomains)
            }
            guard valid else { continue }
            windows.append(
                MaintenanceWindow(
                    name: name, days: days, startMinute: startMinute, duration: duration, timeZone: timeZone,
                    domains: domains))
        }
        return windows
    }

    /// Minutes after midnight of `HH:MM` (00:00 to 23:59). Read from the scalar's text whatever its tag: YAML 1.1
    /// reads an unquoted `23:00` as a base-60 number.
    static func clockMinute(_ node: Node) -> Int? {
        guard case .scalar(let scalar) = node else { return nil }
        let parts = scalar.string.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[1].count == 2, (1...2).contains(parts[0].count),
            parts.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }), let hour = Int(parts[0]), let minute = Int(parts[1]),
            hour < 24, minute < 60
        else { return nil }
        return hour * 60 + minute
    }
}
