import Yams

/// Reads typed values out of Yams nodes and collects every problem with its line and key path.
///
/// Each accessor returns `nil` after recording a problem, so the loader keeps going and reports all problems in one
/// run. `sensitive` values (webhook URLs, secrets) are never quoted back in a message.
struct ConfigurationReader {
    let fileName: String
    private(set) var problems: [ConfigurationProblem] = []
    /// Problems that do not make the file invalid here (see `ConfigurationSurroundings.UnsetVariables`).
    private(set) var warnings: [ConfigurationProblem] = []

    /// More problems than this are summarized: a file that is wrong everywhere needs one fix, not a flood.
    static let problemLimit = 200
    /// The most list items one file may hold, counted every time a list is read. YAML aliases let a few lines
    /// name the same list many times over (`domains: [*d, *d, …]` where each `*d` repeats a long `urls` list), so
    /// without a budget a small file could keep the loader busy for hours.
    static let listItemBudget = 200_000
    private var listItemsRead = 0

    init(fileName: String) {
        self.fileName = fileName
    }

    mutating func report(_ message: String, at node: Node?, path: ConfigurationPath) {
        report(message, line: node?.mark?.line, path: path)
    }

    mutating func report(_ message: String, line: Int?, path: ConfigurationPath) {
        guard problems.count <= Self.problemLimit else { return }
        guard problems.count < Self.problemLimit else {
            let message = "more than \(Self.problemLimit) problems; fix these first, the rest are not listed"
            problems.append(ConfigurationProblem(file: fileName, line: nil, keyPath: "", message: message))
            return
        }
        problems.append(ConfigurationProblem(file: fileName, line: line, keyPath: path.description, message: message))
    }

    mutating func warn(_ message: String, at node: Node?, path: ConfigurationPath) {
        warnings.append(
            ConfigurationProblem(file: fileName, line: node?.mark?.line, keyPath: path.description, message: message))
    }

    /// The fields of a mapping by key; unknown keys and keys that are not strings are reported.
    mutating func fields(of node: Node, path: ConfigurationPath, allowed: [String]) -> [String: Node]? {
        guard case .mapping(let mapping) = node else {
            report("expected a mapping, found \(Self.describe(node))", at: node, path: path)
            return nil
        }
        var fields: [String: Node] = [:]
        for (key, value) in mapping {
            guard case .scalar(let scalar) = key else {
                report("expected a key name, found \(Self.describe(key))", at: key, path: path)
                continue
            }
            guard allowed.contains(scalar.string) else {
                var message = "unknown key '\(Self.truncated(scalar.string))'"
                if let suggestion = KeySuggestion.closest(to: scalar.string, among: allowed) {
                    message += "; did you mean '\(suggestion)'?"
                } else {
                    message += "; expected one of \(allowed.joined(separator: ", "))"
                }
                report(message, at: key, path: path.key(scalar.string))
                continue
            }
            fields[scalar.string] = value
        }
        return fields
    }

    /// A list's elements; a single null (`key:` with nothing after it) reads as an empty list.
    mutating func list(_ node: Node, path: ConfigurationPath) -> [Node]? {
        if Self.isNull(node) { return [] }
        guard case .sequence(let sequence) = node else {
            report("expected a list, found \(Self.describe(node))", at: node, path: path)
            return nil
        }
        listItemsRead += sequence.count
        guard listItemsRead <= Self.listItemBudget else {
            if listItemsRead - sequence.count <= Self.listItemBudget {
                report(
                    "the file expands to more than \(Self.listItemBudget) list items (YAML aliases repeating lists?); "
                        + "write the lists out or split the configuration",
                    at: node, path: path)
            }
            return nil
        }
        return Array(sequence)
    }

    /// A string scalar. Numbers and booleans are refused rather than converted: `name: 1.10` silently losing its
    /// trailing zero is worse than asking for quotes.
    mutating func string(_ node: Node, path: ConfigurationPath, sensitive: Bool = false) -> String? {
        guard case .scalar(let scalar) = node, Self.tagName(node) == .str else {
            let found = sensitive ? Self.kind(of: node) : Self.describe(node)
            let hint = Self.isScalar(node) && !Self.isNull(node) ? " (put it in quotes)" : ""
            report("expected a string, found \(found)\(hint)", at: node, path: path)
            return nil
        }
        guard !scalar.string.isEmpty else {
            report("expected a non-empty string", at: node, path: path)
            return nil
        }
        return scalar.string
    }

    mutating func integer(_ node: Node, path: ConfigurationPath, range: ClosedRange<Int>) -> Int? {
        guard Self.tagName(node) == .int, let value = node.int else {
            report("expected a whole number, found \(Self.describe(node))", at: node, path: path)
            return nil
        }
        guard range.contains(value) else {
            report(
                "expected a number from \(range.lowerBound) to \(range.upperBound), found \(value)", at: node,
                path: path)
            return nil
        }
        return value
    }

    mutating func boolean(_ node: Node, path: ConfigurationPath) -> Bool? {
        guard Self.tagName(node) == .bool, let value = node.bool else {
            report("expected true or false, found \(Self.describe(node))", at: node, path: path)
            return nil
        }
        return value
    }

    /// A duration of at least `minimum`, read by `SettingValue.duration` as the flags are.
    mutating func duration(_ node: Node, path: ConfigurationPath, minimum: Duration = .seconds(1)) -> Duration? {
        guard case .scalar(let scalar) = node, Self.tagName(node) == .str || Self.tagName(node) == .int else {
            report("expected a duration like 30s, 15m, 24h or 14d, found \(Self.describe(node))", at: node, path: path)
            return nil
        }
        switch SettingValue.duration(scalar.string, minimum: minimum) {
        case .failure(let error):
            report("\(error.reason), found \(Self.describe(node))", at: node, path: path)
            return nil
        case .success(let duration):
            return duration
        }
    }

    /// A duration judged by `limit`, the entry of `SettingLimits` that `check`'s flag is judged by too.
    mutating func duration(_ node: Node, path: ConfigurationPath, _ limit: DurationLimit) -> Duration? {
        duration(node, path: path, minimum: limit.minimum)
    }

    /// A whole number judged by `limit`, the entry of `SettingLimits` that `check`'s flag is judged by too.
    mutating func integer(_ node: Node, path: ConfigurationPath, _ limit: IntegerLimit) -> Int? {
        integer(node, path: path, range: limit.range)
    }

    /// One of an enum's raw values.
    mutating func choice<Choice: RawRepresentable & CaseIterable>(
        _ node: Node, path: ConfigurationPath, as type: Choice.Type
    ) -> Choice? where Choice.RawValue == String {
        let names = Choice.allCases.map(\.rawValue).joined(separator: ", ")
        guard case .scalar(let scalar) = node, Self.tagName(node) == .str, let value = Choice(rawValue: scalar.string)
        else {
            report("expected one of \(names), found \(Self.describe(node))", at: node, path: path)
            return nil
        }
        return value
    }

    // MARK: Describing what was found

    /// The node's resolved tag (`str`, `int`, `bool`, …): what YAML made of an unquoted scalar.
    ///
    /// An unquoted scalar starting with a letter is answered without Yams' resolver: of its default rules only the
    /// bool and null words can match such a text (numbers, timestamps, `~`, `<<` and `=` start otherwise), and the
    /// resolver's regular expressions were 28% of `status` at 100,000 domains (0.6 s, one per domain name).
    static func tagName(_ node: Node) -> Tag.Name {
        if case .scalar(let scalar) = node, scalar.tag.description == Tag.Name.implicit.rawValue,
            let first = scalar.string.utf8.first, (first | 0x20) >= 0x61, (first | 0x20) <= 0x7A
        {
            if boolWords.contains(scalar.string) { return .bool }
            return nullWords.contains(scalar.string) ? .null : .str
        }
        return Tag.Name(rawValue: node.tag.rawValue)
    }

    /// The words Yams' default resolver reads as booleans and as null (`Resolver.Rule.bool`, `.null`).
    private static let boolWords: Set<String> = [
        "yes", "Yes", "YES", "no", "No", "NO", "true", "True", "TRUE", "false", "False", "FALSE", "on", "On", "ON",
        "off", "Off", "OFF",
    ]
    private static let nullWords: Set<String> = ["null", "Null", "NULL"]

    static func isNull(_ node: Node) -> Bool { Self.tagName(node) == .null }

    static func isScalar(_ node: Node) -> Bool {
        if case .scalar = node { return true }
        return false
    }

    /// What kind of value a node is, without its content.
    static func kind(of node: Node) -> String {
        switch node {
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .alias: return "an alias"
        case .scalar:
            switch Self.tagName(node) {
            case .null: return "nothing (null)"
            case .bool: return "a boolean"
            case .int, .float: return "a number"
            default: return "a string"
            }
        }
    }

    /// What a node is, quoting a scalar's text (shortened) so the reader can find it.
    static func describe(_ node: Node) -> String {
        guard case .scalar(let scalar) = node, Self.tagName(node) != .null else { return kind(of: node) }
        let quoted = "\"\(truncated(scalar.string))\""
        return Self.tagName(node) == .str ? quoted : "\(kind(of: node)) \(quoted)"
    }

    static func truncated(_ text: String) -> String {
        let clean = String(text.unicodeScalars.map { $0.properties.generalCategory == .control ? "?" : Character($0) })
        return clean.count > 60 ? String(clean.prefix(57)) + "..." : clean
    }
}
