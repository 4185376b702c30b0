import Foundation
import HTTPEngine

/// `check` without the command line: probe every domain, evaluate each, hand on the results in the order given.
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
    ///
    /// Streams: each report is reduced by `compact` at once (its documents and observation are dropped then), and
    /// `emit` gets the compact results in the order of `targets` (duplicates checked once), each as soon as it
    /// and every earlier one are done. Memory holds only the compact results waiting behind a slower domain.
    public static func stream<Compact>(
        _ targets: [Target],
        probe settings: ProbeSettings,
        evaluation: EvaluationSettings,
        clock: @escaping @Sendable () -> Date = { Date() },
        compact: (DomainReport) throws -> Compact,
        emit: (Compact) throws -> Void
    ) async throws {
        let domains = uniqued(targets.map(\.domain))
        var slots: [String: (index: Int, expectations: Expectations)] = [:]
        for (index, domain) in domains.enumerated() { slots[domain] = (index, Expectations()) }
        for target in targets.reversed() { slots[target.domain]?.expectations = target.expectations }
        var release = InOrderRelease<Compact>()
        try await withCurlEngine(configuration: settings.engineConfiguration) { engine in
            let probe = DomainProbe(engine: engine, settings: settings)
            for await observation in probe.observeAll(domains: domains, now: clock) {
                guard let slot = slots[observation.domain] else { continue }
                let report = DomainEvaluator.evaluate(
                    observation, expectations: slot.expectations, settings: evaluation, now: observation.finishedAt)
                for value in release.accept(try compact(report), at: slot.index) { try emit(value) }
            }
        }
        try Task.checkCancellation()
    }

    /// Every report in the order given, held in memory: for tests and callers with few domains. `check` streams.
    public static func run(
        _ targets: [Target],
        probe settings: ProbeSettings,
        evaluation: EvaluationSettings,
        clock: @escaping @Sendable () -> Date = { Date() }
    ) async throws -> [DomainReport] {
        var reports: [DomainReport] = []
        try await stream(
            targets, probe: settings, evaluation: evaluation, clock: clock, compact: { $0 },
            emit: { reports.append($0) })
        return reports
    }

    private static func uniqued(_ domains: [String]) -> [String] {
        var seen: Set<String> = []
        return domains.filter { seen.insert($0).inserted }
    }
}
