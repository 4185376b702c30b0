import Foundation
import HTTPEngine
import MonitorCore
import MonitorEvaluation

/// `check` without the command line: probe every domain, evaluate each, hand on the results in the order given.
///
/// End-to-end tests call this directly against fixture servers; the command only parses arguments and prints.
package enum CheckRunner {
    /// One domain to check and what must hold for it.
    package struct Target: Sendable, Hashable {
        package var domain: String
        package var expectations: Expectations

        package init(domain: String, expectations: Expectations = Expectations()) {
            self.domain = domain
            self.expectations = expectations
        }
    }

    /// Checks `targets` with one engine, at most `probe.concurrency` domains at once, and evaluates each as soon
    /// as its observation arrives. A domain that hangs holds one slot for at most about twice the timeout.
    ///
    /// Streams with bounded memory: each domain is observed, evaluated and reduced by `compact` in its own child
    /// task (so evaluation uses every core), which drops its bodies, documents and report there. `emit` gets the
    /// compact results in the order of `targets` (duplicates checked once), each as soon as it and every earlier
    /// one are done. A new domain starts only when a finished one has been taken, so at most `concurrency`
    /// observations exist at once; what waits behind a slower earlier domain is only its compact result.
    package static func stream<Compact: Sendable>(
        _ targets: [Target],
        probe settings: ProbeSettings,
        evaluation: EvaluationSettings,
        clock: @escaping @Sendable () -> Date = { Date() },
        compact: @escaping @Sendable (DomainReport) throws -> Compact,
        emit: (Compact) throws -> Void
    ) async throws {
        let unique = firstOfEachDomain(targets)
        var release = InOrderRelease<Compact>()
        try await withCurlEngine(configuration: settings.engineConfiguration) { engine in
            let probe = DomainProbe(engine: engine, settings: settings)
            let memo = LintMemo()
            try await withThrowingTaskGroup(of: (Int, Compact).self) { group in
                var pending = unique.enumerated().makeIterator()
                func start() {
                    guard !Task.isCancelled, let (index, target) = pending.next() else { return }
                    group.addTask {
                        let observation = await probe.observe(domain: target.domain, now: clock)
                        let report = DomainEvaluator.evaluate(
                            observation, expectations: target.expectations, settings: evaluation,
                            now: observation.finishedAt, memo: memo)
                        return (index, try compact(report))
                    }
                }
                for _ in 0..<settings.concurrency { start() }
                while let (index, value) = try await group.next() {
                    start()
                    for released in release.accept(value, at: index) { try emit(released) }
                }
            }
        }
        try Task.checkCancellation()
    }

    /// Every report in the order given, held in memory: for tests and callers with few domains. `check` streams.
    package static func run(
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

    /// `targets` without repeated domains; a repeated domain keeps its first expectations. The set of names seen
    /// is freed on return, so it costs no memory while the domains are checked.
    private static func firstOfEachDomain(_ targets: [Target]) -> [Target] {
        var seen: Set<String> = []
        return targets.filter { seen.insert($0.domain).inserted }
    }

}
