import AASA

/// A code is written as its id, so typed codes keep the JSON of reports, alert keys and events byte for byte.
extension FindingCode: Codable {
    public init(from decoder: any Decoder) throws {
        self.init(storedID: try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(id)
    }
}
