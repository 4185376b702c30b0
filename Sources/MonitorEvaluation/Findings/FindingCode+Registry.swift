import AASA

extension FindingCode {
    /// Every code, grouped by family: what `explain --list`, its completion and the man page show. The one list of
    /// declarations: the codes a report, an alert key or an event can carry (the monitor's own conditions
    /// included), then the app reader's `app.*`, which `app`, `check --app` and `apps:` report.
    public static let all: [FindingCode] = origin + body + document + cdn + expectation + monitor + app

    /// Built once, for `init?(id:)` and `init(storedID:)`: only reading a stored row or a typed code looks one up.
    private static let byID: [String: FindingCode] = Dictionary(uniqueKeysWithValues: all.map { ($0.id, $0) })

    /// The registered code with this id, or `nil` (a typo, or a code from a newer or older version's history).
    public init?(id: String) {
        guard let code = Self.byID[id] else { return nil }
        self = code
    }

    /// The code a stored row names (a report's finding, an alert state's key, an outbox event): the registered
    /// member, or else an unregistered code keeping the id (`init(unregistered:)`), so a row written by another
    /// version is read and written back unchanged instead of failing to decode.
    public init(storedID id: String) {
        self = Self.byID[id] ?? FindingCode(unregistered: id)
    }
}
