import AASA
import Foundation
import MonitorCore
import MonitorEvaluation
import TestSupport

/// A `DaemonCore` driven by hand: a clock moved by the test, a seeded generator, no jitter, no start-up window, and
/// silences read once at start unless a test says otherwise.
/// It keeps the jobs started and the batches appended, so a test answers them as the executor would.
struct CoreHarness {
    /// What a hand-made check saw.
    enum Outcome {
        case healthy
        /// `.well-known` refuses connections; Apple's CDN answers: the domain's own failure.
        case originConnect
        /// Both `.well-known` and Apple's CDN host fail DNS: this host's network (`monitor.network`).
        case hostDown
    }

    static let t0 = Date(timeIntervalSince1970: 1_795_000_000)
    static func t(_ seconds: Double) -> Date { t0.addingTimeInterval(seconds) }
    static func seconds(_ date: Date) -> Double { (date.timeIntervalSince(t0) * 1000).rounded() / 1000 }

    static func configuration(
        _ domains: [String] = ["a.test", "b.test"], concurrency: Int = 4, webhook: String = "ops",
        extra: String = ""
    ) throws -> MonitorConfiguration {
        let yaml = """
            interval: 60s
            http:
              concurrency: \(concurrency)
            alerts:
              failure_threshold: 1
            \(extra)
            webhooks:
              - name: \(webhook)
                url: https://hooks.test/\(webhook)
            domains:

            """ + domains.map { "  - \($0)\n" }.joined()
        return try ConfigurationLoader.load(text: yaml, fileName: "config.yml", environment: [:], readFile: { _ in "" })
    }

    var core: DaemonCore
    /// The last job started for each domain.
    var jobs: [String: DaemonCore.Job] = [:]
    /// Every batch appended, in order.
    var batches: [DaemonCore.JournalBatch] = []
    /// The raw actions of the last event.
    var last: [DaemonCore.Action] = []

    init(
        _ configuration: MonitorConfiguration, book: [String: BookEntry] = [:],
        tunables: DaemonCore.Tunables = DaemonCore.Tunables(silenceRefresh: 3_600, jitter: 0, startupWindow: 0),
        cluster: ClusterMode? = nil
    ) {
        core = DaemonCore(
            configuration: configuration, book: book, conditions: [], now: Self.t0,
            generator: SeededGenerator(state: 1), tunables: tunables, cluster: cluster)
    }

    /// The database granted `grants` (domain, epoch, entry) at `seconds`; the earliest other domain is due at
    /// `nextDue` seconds.
    @discardableResult
    mutating func grant(
        _ grants: [(String, Int64, BookEntry?)], nextDue: Double? = nil, at seconds: Double
    ) -> [Digest] {
        send(
            .claimed(
                grants.map { Grant(lease: Lease(domain: $0.0, epoch: $0.1), entry: $0.2) },
                nextDue: nextDue.map(Self.t), now: Self.t(seconds)))
    }

    /// Sends `event`; returns the digests of the actions.
    @discardableResult
    mutating func send(_ event: DaemonCore.Event) -> [Digest] {
        last = core.receive(event)
        for action in last {
            switch action {
            case .start(let started): for job in started { jobs[job.domain] = job }
            case .append(let batch): batches.append(batch)
            default: break
            }
        }
        return last.map(Digest.init)
    }

    /// Listens and reads no silences at `at`: the due checks start, a delivery pass stays outstanding.
    @discardableResult
    mutating func begin(at seconds: Double = 0) -> [Digest] {
        send(.listening(now: Self.t(seconds))) + send(.silencesRead([], now: Self.t(seconds)))
    }

    /// `domain`'s job ended with a report of `outcome` at `seconds`, reduced under the job's ledger policy as the
    /// executor does.
    @discardableResult
    mutating func report(
        _ domain: String, _ outcome: Outcome, at seconds: Double, failedFetch: Bool = false,
        lastShortage: Date? = nil
    ) -> [Digest] {
        let job = jobs[domain]!
        let result = Self.reported(job, outcome, at: seconds, failedFetch: failedFetch, lastShortage: lastShortage)
        return send(.checked(job.id, result, now: Self.t(seconds)))
    }

    @discardableResult
    mutating func end(_ domain: String, _ result: DaemonCore.CheckResult, at seconds: Double) -> [Digest] {
        send(.checked(jobs[domain]!.id, result, now: Self.t(seconds)))
    }

    @discardableResult
    mutating func commit(_ seq: UInt64, at seconds: Double) -> [Digest] {
        send(.committed(seq, run: RunMark(id: Int64(seq), key: "run\(seq)"), now: Self.t(seconds)))
    }

    @discardableResult
    mutating func fail(_ seq: UInt64, at seconds: Double) -> [Digest] {
        send(.appendFailed(seq, reason: "disk I/O error", now: Self.t(seconds)))
    }

    @discardableResult
    mutating func tick(_ seconds: Double) -> [Digest] { send(.tick(now: Self.t(seconds))) }

    /// The item `seq` of the batches appended so far.
    func item(_ seq: UInt64) -> DaemonCore.JournalBatch.Item? {
        batches.flatMap(\.items).first { $0.seq == seq }
    }

    static func report(_ domain: String, _ outcome: Outcome, at seconds: Double, entry: BookEntry?) -> DomainReport {
        typealias F = ObservationFixtures
        let observation: DomainObservation
        switch outcome {
        case .healthy: observation = F.observation()
        case .originConnect: observation = F.observation(wellKnown: F.failure(.connect))
        case .hostDown: observation = F.observation(wellKnown: F.failure(.dns), cdn: F.failure(.dns))
        }
        var timed = observation
        timed.domain = domain
        timed.startedAt = t(seconds - 0.5)
        timed.finishedAt = t(seconds)
        return DomainReducer.report(
            of: timed, entry: entry, expectations: Expectations(), settings: EvaluationSettings())
    }

    static func reported(
        _ job: DaemonCore.Job, _ outcome: Outcome, at seconds: Double, failedFetch: Bool = false,
        lastShortage: Date? = nil
    ) -> DaemonCore.CheckResult {
        let report = report(job.domain, outcome, at: seconds, entry: job.entry)
        var ids = SeededGenerator(state: 99)
        let ledger = DomainReducer.records(
            of: report, entry: job.entry, policy: job.ledger, silences: job.silences, previousOriginDocument: nil,
            makeID: { EventID.make(at: report.checkedAt, using: &ids) })
        return .reported(
            DaemonCore.Reported(
                report: report, outcome: ledger, failedFetch: failedFetch, lastShortage: lastShortage))
    }
}

extension LedgerOutcome {
    /// Whether an alert on `source` fires with this outcome.
    func fires(on source: FindingSource) -> Bool {
        events.contains { $0.type == .alertFiring && $0.alert?.source == source }
    }
}
