import Foundation
import MonitorCore
import MonitorDaemon
import MonitorEndpoint
import MonitorEvaluation
import MonitorStatus
import MonitorStore

/// The overview and `status`'s summary read from a state directory that already holds a fleet (`--read-store DIR
/// --names FILE`, one configured name a line): how long the first page, a filtered page, the last page and the
/// summary take, and how much the page sends. A fleet of 100,000 is made by recording 1,000 with `--keep-store` and
/// copying their rows under new names with SQL, far faster than recording 100,000 checks.
func measureStoredFleet(directory: String, namesFile: String, runs: Int) async throws {
    let names = try String(contentsOfFile: namesFile, encoding: .utf8).split(separator: "\n").map(String.init)
    let store = try StoreReader.openReadOnly(directory: directory)
    let now = Date()
    let pages = StatusPageReader(store: store)
    print("stored fleet: \(names.count) configured domains in \(store.path); median of \(runs) runs")
    print("reader                          | CPU ms | wall ms | KB")
    let queries: [(String, DomainListing.Query)] = [
        ("/ (first page)", .init()),
        ("/?verdict=cdn_stale&q=7", .init(verdicts: [.cdnStale], nameContains: "7")),
        ("/?offset=(last page)", .init(offset: max(names.count - 100, 0))),
    ]
    for (label, query) in queries {
        let time = try await measure(runs: runs) {
            try await pages.overview(now: now, configured: names, lastCycle: now, query: query).html().utf8.count
        }
        print(
            label.padding(toLength: 32, withPad: " ", startingAt: 0)
                + String(format: "| %6.1f | %7.1f | %d", time.milliseconds, time.wall, time.bytes / 1_024))
    }
    // `/metrics` for as many domains (its snapshot comes from the daemon's memory, not the store): linear.
    let metrics = MetricsSnapshot(
        domains: names.enumerated().map { index, name in
            DomainMetrics(
                domain: name, verdict: index % 7 == 0 ? .cdnStale : .ready, cdnInSync: index % 7 != 0,
                staleSeconds: index % 7 == 0 ? 600 : nil, certificateNotAfter: now.addingTimeInterval(86_400 * 60),
                lastCheck: now, lastCheckDuration: 0.25, lastPropagationDelay: 3_600,
                checksByVerdict: [.ready: 100, .cdnStale: 3])
        }, outboxDeliveries: ["pending": 1, "retrying": 0, "dead": 2], schedulerLastProgress: now)
    let scrape = try await measure(runs: runs) { metrics.prometheusText().utf8.count }
    print(
        "/metrics".padding(toLength: 32, withPad: " ", startingAt: 0)
            + String(format: "| %6.1f | %7.1f | %d", scrape.milliseconds, scrape.wall, scrape.bytes / 1_024))
    let summary = try await measure(runs: runs) {
        StatusText.render(try await StatusReader(store: store).summary(now: now, configured: names)).utf8.count
    }
    print(
        "status (summary)".padding(toLength: 32, withPad: " ", startingAt: 0)
            + String(format: "| %6.1f | %7.1f | %d", summary.milliseconds, summary.wall, summary.bytes / 1_024))
}
