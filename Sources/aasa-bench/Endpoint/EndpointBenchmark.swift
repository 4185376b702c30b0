import AASA
import Foundation
import MonitorCore
import MonitorDaemon
import MonitorEndpoint
import MonitorEvaluation
import MonitorStatus
import MonitorStore

#if canImport(Glibc)
    import Glibc
#endif

// aasa-bench endpoint: the server CPU time of the endpoint's answers at 500, 1,000, 2,000 and 4,000 domains.
//
// `/metrics` renders a snapshot of n domains; `/status` reads n domain states from an in-memory store (one recorded
// check each, every fifth domain with a finding, every seventh stale) and encodes them, as the daemon does per
// request (left out above 20,000 domains: it is every domain in full by definition). `/` renders the overview's
// first page (at most 200 rows, problems first, and the counts), and `status` the summary `aasa-monitor status`
// prints without a domain. `/domains/NAME` renders one domain with 1,000 propagations. CPU time is the process's
// (the work is single-threaded), the median of `--runs` runs; wall time, the median too, covers SQLite waiting.
// `--html DIR` also writes the pages it rendered (overview.html of the smallest size, domain.html), to look at.
// Last, the store's coding cost per state and report (compressed JSON columns).
// `--keep-store DIR` records into a store in DIR instead of memory (one size); `--read-store DIR --names FILE`
// measures the overview and the summary on a fleet already stored there (`measureStoredFleet`) and stops.
// `--password-flood` measures a verified credential's check under a wrong-password flood from 40 addresses
// (`measurePasswordFlood`) and stops.
// Usage: aasa-bench endpoint [--runs N] [--sizes 500,1000] [--html DIR] [--keep-store DIR]
//        aasa-bench endpoint --read-store DIR --names FILE [--runs N]
//        aasa-bench endpoint --password-flood [--runs N]
enum EndpointBenchmark {
    struct Options {
        var runs = 5
        var htmlDirectory: String?
        var keepStore: String?
        var readStore: String?
        var namesFile: String?
        var sizes = [500, 1_000, 2_000, 4_000]
        var passwordFlood = false
    }

    static let start = Date(timeIntervalSince1970: 1_800_000_000)
    static let origin = "sha256:" + String(repeating: "a", count: 64)
    static let cdn = "sha256:" + String(repeating: "b", count: 64)

    static func report(domain: String, index: Int, at date: Date) -> DomainReport {
        let findings =
            index % 5 == 0
            ? [
                ReportFinding(
                    code: .aasaAppIDFormat, severity: .warning, source: .wellKnown,
                    message: "app ID \"<script>alert(\(index))</script>\" is not TEAMID.bundle.id")
            ] : []
        return DomainReport(
            domain: domain, checkedAt: date, durationSeconds: 0.25, verdict: index % 7 == 0 ? .cdnStale : .ready,
            findings: findings,
            origin: OriginFacts(
                wellKnown: LocationFacts(
                    url: "https://\(domain)/.well-known/apple-app-site-association", status: 200, canonicalHash: origin),
                plainStatus: 200, root: nil),
            cdn: CDNFacts(
                url: "https://app-site-association.cdn-apple.com/a/v1/\(domain)", status: 200,
                canonicalHash: index % 7 == 0 ? cdn : origin),
            diff: nil,
            documents: [origin: #"{"applinks":{"details":[]}}"#, cdn: #"{"applinks":{"details":[],"x":1}}"#])
    }

    static func run(_ options: Options) async throws {
        let (runs, htmlDirectory, keepStore, readStore) = (
            options.runs, options.htmlDirectory, options.keepStore, options.readStore
        )
        let (namesFile, sizes, passwordFlood) = (options.namesFile, options.sizes, options.passwordFlood)
        if passwordFlood {
            try await measurePasswordFlood(runs: runs)
            return
        }

        if let readStore {
            try await measureStoredFleet(
                directory: readStore, namesFile: namesFile ?? readStore + "/names.txt", runs: runs)
            return
        }

        print("aasa-bench endpoint: median server CPU ms of \(runs) runs (debug builds are several times slower)")
        print("domains | /metrics ms | /status ms | / ms (wall) | / KB | status summary ms (wall)")
        for size in sizes {
            let store: MonitorStore
            if let keepStore {
                store = try await MonitorStore.open(directory: keepStore)
            } else {
                store = try await MonitorStore.inMemory()
            }
            let names = (0..<size).map { "d\($0).bench.example" }
            for (index, name) in names.enumerated() {
                try await store.record(report: report(domain: name, index: index, at: start))
            }
            let metrics = MetricsSnapshot(
                domains: names.enumerated().map { index, name in
                    DomainMetrics(
                        domain: name, verdict: index % 7 == 0 ? .cdnStale : .ready, cdnInSync: index % 7 != 0,
                        staleSeconds: index % 7 == 0 ? 600 : nil,
                        certificateNotAfter: start.addingTimeInterval(86_400 * 60),
                        lastCheck: start, lastCheckDuration: 0.25, lastPropagationDelay: 3_600,
                        checksByVerdict: [.ready: 100, .cdnStale: 3])
                }, outboxDeliveries: ["pending": 1, "retrying": 0, "dead": 2], schedulerLastProgress: start)
            let metricsTime = try await measure(runs: runs) { metrics.prometheusText().utf8.count }
            let statusTime =
                size > 20_000
                ? nil
                : try await measure(runs: runs) {
                    let snapshot = try await StatusReader(store: store.reader).snapshot(now: start, domains: names)
                    return try MonitorJSON.encoder().encode(snapshot).count
                }
            let pageTime = try await measure(runs: runs) {
                try await StatusPageReader(store: store.reader).overview(
                    now: start, configured: names, lastCycle: start
                )
                .html().utf8.count
            }
            let summaryTime = try await measure(runs: runs) {
                StatusText.render(try await StatusReader(store: store.reader).summary(now: start, configured: names))
                    .utf8
                    .count
            }
            let statusText = statusTime.map { String(format: "%10.1f", $0.milliseconds) } ?? "         -"
            print(
                String(format: "%7d | %11.1f | ", size, metricsTime.milliseconds) + statusText
                    + String(
                        format: " | %5.1f (%5.1f) | %4d | %5.1f (%5.1f)", pageTime.milliseconds, pageTime.wall,
                        pageTime.bytes / 1_024, summaryTime.milliseconds, summaryTime.wall))
            if let htmlDirectory, size == sizes.min() {
                let page = try await StatusPageReader(store: store.reader).overview(
                    now: start, configured: names, lastCycle: start)
                try page.html().write(toFile: htmlDirectory + "/overview.html", atomically: true, encoding: .utf8)
            }
            if let htmlDirectory {
                let page = try await StatusPageReader(store: store.reader).domain(
                    "one.bench.example", now: start, configured: true)
                try page?.html().write(toFile: htmlDirectory + "/domain.html", atomically: true, encoding: .utf8)
            }
            try store.close()
        }

        // One domain page with a long propagation history.
        let store = try await MonitorStore.inMemory()
        var hash = origin
        for step in 0..<1_000 {
            let at = start.addingTimeInterval(Double(step) * 3_600)
            let next = "sha256:" + String(format: "%064d", step)
            // The origin changes, and an hour later Apple serves it: one cdn.propagated event per step.
            var changed = report(domain: "one.bench.example", index: 1, at: at)
            changed.documents = [next: #"{"applinks":{"details":[],"n":\#(step)}}"#, hash: "{}"]
            changed.origin.wellKnown.canonicalHash = next
            changed.cdn?.canonicalHash = hash
            try await store.record(report: changed)
            var caught = changed
            caught.checkedAt = at.addingTimeInterval(Double(600 + step % 50 * 60))
            caught.cdn?.canonicalHash = next
            try await store.record(report: caught)
            hash = next
        }
        let domainTime = try await measure(runs: runs) {
            try await StatusPageReader(store: store.reader).domain("one.bench.example", now: start, configured: true)?
                .html().utf8.count ?? 0
        }
        print(
            String(
                format: "/domains/NAME with 1,000 propagations: %.1f ms, %d KB", domainTime.milliseconds,
                domainTime.bytes / 1_024))
        if let htmlDirectory {
            let page = try await StatusPageReader(store: store.reader).domain(
                "one.bench.example", now: start, configured: true)
            try page?.html().write(toFile: htmlDirectory + "/domain.html", atomically: true, encoding: .utf8)
        }
        if let state = try await store.reader.domainState("one.bench.example") {
            try printStoreCodingFigures(
                state: state, report: report(domain: "one.bench.example", index: 5, at: start), runs: runs)
        }
        try store.close()
    }
}

/// CPU seconds this process has used.
func cpuSeconds() -> Double {
    Double(clock()) / Double(CLOCKS_PER_SEC)
}

/// The median CPU and wall milliseconds of `runs` calls of `body`, and the size of its last answer.
func measure(
    runs: Int, _ body: () async throws -> Int
) async throws -> (milliseconds: Double, wall: Double, bytes: Int) {
    var samples: [Double] = []
    var walls: [Double] = []
    var bytes = 0
    for _ in 0..<runs {
        let start = cpuSeconds()
        let wallStart = Date()
        bytes = try await body()
        samples.append((cpuSeconds() - start) * 1_000)
        walls.append(Date().timeIntervalSince(wallStart) * 1_000)
    }
    return (samples.sorted()[samples.count / 2], walls.sorted()[walls.count / 2], bytes)
}

/// Stops the benchmark with `message`: what it cannot measure.
func refuse(_ message: String) -> Never {
    FileHandle.standardError.write(Data("aasa-bench endpoint: \(message)\n".utf8))
    exit(2)
}
