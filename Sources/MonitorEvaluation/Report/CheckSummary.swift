import Foundation

/// What `check --json` ends with, so a CI script needs no join over `domains`: the worst verdict, the exit code
/// the command exits with, how many domains had each verdict, the version and the time.
public struct CheckSummary: Sendable, Hashable, Encodable {
    /// The verdict that decides the exit code: of the verdicts with the most severe exit code (1, then 4, then 3),
    /// the first in the verdicts' order (`origin_broken`, `expectation_failed`, `cdn_missing`, `cdn_stale`,
    /// `unknown`); `ready` when every domain is.
    public var verdict: Verdict
    public var exitCode: Int32
    /// Domains checked, and how many had each verdict (verdicts no domain had are absent).
    public var domains: Int
    public var verdicts: [String: Int]
    public var version: String
    /// When the command finished checking.
    public var checkedAt: Date

    public init(verdicts: [Verdict], version: String, checkedAt: Date) {
        let exitCode = Verdict.exitCode(for: verdicts)
        self.exitCode = exitCode
        self.verdict = Verdict.allCases.first { $0.exitCode == exitCode && verdicts.contains($0) } ?? .ready
        self.domains = verdicts.count
        self.verdicts = verdicts.reduce(into: [:]) { counts, verdict in counts[verdict.rawValue, default: 0] += 1 }
        self.version = version
        self.checkedAt = checkedAt
    }

    enum CodingKeys: String, CodingKey {
        case verdict, domains, verdicts, version
        case exitCode = "exit_code"
        case checkedAt = "checked_at"
    }
}

extension CheckSummary {
    /// The last line of `check`'s text: `6 domains: 3 ready, 1 cdn_stale, 1 origin_broken — exit 1`. The counts go
    /// from the best verdict to the worst, so the worst stands next to the exit code it decided.
    public var line: String {
        let counts = Verdict.allCases.reversed().compactMap { verdict in
            verdicts[verdict.rawValue].map { "\($0) \(verdict.rawValue)" }
        }
        return "\(domains) domain\(domains == 1 ? "" : "s"): \(counts.joined(separator: ", ")) — exit \(exitCode)"
    }
}
