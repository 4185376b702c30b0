/// One problem found in a document, in the shared language of finding codes (`aasa.type`, `origin.json`, …).
public struct Finding: Sendable, Hashable, Codable {
    /// How much a finding matters; `info` never alerts.
    public enum Severity: String, Sendable, Hashable, Codable, Comparable, CaseIterable {
        case info
        case warning
        case error

        private var rank: Int {
            switch self {
            case .info: 0
            case .warning: 1
            case .error: 2
            }
        }

        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
    }

    /// The registered code; findings are built only from `FindingCode` members.
    public let findingCode: FindingCode
    /// The code's stable dotted id (`aasa.type`), as in JSON; receivers route on it.
    public var code: String { findingCode.id }
    public var severity: Severity
    /// JSON path of the offending value (`$.applinks.details[0].appIDs[1]`), or `nil` for the body as a whole.
    public var path: String?
    /// One line for a person: what is wrong and what to change.
    public var message: String

    public init(code: FindingCode, severity: Severity, path: String?, message: String) {
        self.findingCode = code
        self.severity = severity
        self.path = path
        self.message = message
    }

    private enum CodingKeys: String, CodingKey {
        case code, severity, path, message
    }

    /// Reads a finding written by `encode(to:)`; its code must be one this module raises.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let id = try container.decode(String.self, forKey: .code)
        guard let code = (FindingCode.body + FindingCode.document).first(where: { $0.id == id }) else {
            throw DecodingError.dataCorruptedError(
                forKey: .code, in: container, debugDescription: "\(id) is not a code of a document's content")
        }
        self.findingCode = code
        self.severity = try container.decode(Severity.self, forKey: .severity)
        self.path = try container.decodeIfPresent(String.self, forKey: .path)
        self.message = try container.decode(String.self, forKey: .message)
    }

    /// Writes `path` even when it is `nil` (as `null`, for a finding about the body as a whole), so every finding
    /// in `lint --json` has the same keys and scripts can rely on `findings[].path`: the JSON interface writes
    /// absent optional values as `null` rather than leaving keys out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(code, forKey: .code)
        try container.encode(severity, forKey: .severity)
        try container.encode(path, forKey: .path)
        try container.encode(message, forKey: .message)
    }
}
