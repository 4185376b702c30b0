/// One word per domain for "will universal links work on Apple's copy right now?"; `DomainEvaluator.verdict`
/// says which applies.
public enum Verdict: String, Sendable, Hashable, Codable, CaseIterable {
    case originBroken = "origin_broken"
    case expectationFailed = "expectation_failed"
    case cdnMissing = "cdn_missing"
    case cdnStale = "cdn_stale"
    case unknown
    case ready

    /// `check`'s exit code for a domain with this verdict.
    public var exitCode: Int32 {
        switch self {
        case .ready: 0
        case .originBroken: 1
        case .cdnMissing, .cdnStale, .unknown: 3
        case .expectationFailed: 4
        }
    }

    /// The exit code of `check` over several domains: the most severe applies, in the order 1, 4, 3, 0.
    public static func exitCode(for verdicts: some Sequence<Verdict>) -> Int32 {
        let codes = Set(verdicts.map(\.exitCode))
        for code: Int32 in [1, 4, 3] where codes.contains(code) { return code }
        return 0
    }
}
