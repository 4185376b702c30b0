import AASA

extension FindingCode {
    /// Every code the monitor can report, grouped by family: what `explain --list` and the man page show.
    public static let all: [FindingCode] = origin + body + document + cdn + expectation

    private static let byID: [String: FindingCode] = Dictionary(uniqueKeysWithValues: all.map { ($0.id, $0) })

    /// The registered code with this id, or `nil` (a typo, or a code from a newer or older version's history).
    public init?(id: String) {
        guard let code = Self.byID[id] else { return nil }
        self = code
    }
}
