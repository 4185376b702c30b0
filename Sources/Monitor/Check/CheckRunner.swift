import Foundation
import HTTPEngine

/// `check` without the command line: probe every domain, evaluate each, return the reports in the order given.
///
/// End-to-end tests call this directly against fixture servers; the command only parses arguments and prints.
public enum CheckRunner {
    /// One domain to check and what must hold for it.
    public struct Target: Sendable, Hashable {
        public var domain: String
        public var expectations: Expectations

        public init(domain: String, expectations: Expectations = Expectations()) {
            self.domain = domain
            self.expectations = expectations
        }
    }

    /// Checks `targets` with one engine, at most `probe.concurrency` domains at once, and evaluates each as soon
    /// as its observation arrives. A domain that hangs holds one slot for about twice the timeout, never more.
    public static func run(
        _ targets: [Target],
        probe settings: ProbeSettings,
        evaluation: EvaluationSettings,
        clock: @escaping @Sendable () -> Date = { Date() }
    ) async throws -> [DomainReport] {
        let expectations = Dictionary(targets.map { ($0.domain, $0.expectations) }, uniquingKeysWith: { a, _ in a })
        let domains = uniqued(targets.map(\.domain))
        var reports: [String: DomainReport] = [:]
        try await withCurlEngine(configuration: settings.engineConfiguration) { engine in
            let probe = DomainProbe(engine: engine, settings: settings)
            for await observation in probe.observeAll(domains: domains, now: clock) {
                reports[observation.domain] = DomainEvaluator.evaluate(
                    observation, expectations: expectations[observation.domain] ?? Expectations(),
                    settings: evaluation, now: observation.finishedAt)
            }
        }
        try Task.checkCancellation()
        return domains.compactMap { reports[$0] }
    }

    private static func uniqued(_ domains: [String]) -> [String] {
        var seen: Set<String> = []
        return domains.filter { seen.insert($0).inserted }
    }
}
