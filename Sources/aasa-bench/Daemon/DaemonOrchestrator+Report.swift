import BenchmarkSupport
import Foundation

extension DaemonOrchestrator {
    /// One run's figures, as a block of lines.
    static func report(run: Int, _ sample: Sample, options: Options) {
        let daemon = sample.daemon
        let bare = sample.bare
        let cap = options.readerCapSeconds
        var lines = [
            "run \(run) (load at its end: \(sample.load))",
            "  checks recorded \(daemon.checks) (\(daemon.domainsChecked) domains checked); daemon CPU "
                + "\(fixed(daemon.cpuSeconds)) s = \(ms(sample.daemonCPUPerCheck)) ms per check",
            "  bare client CPU \(ms(sample.bareCPUPerCheck)) ms per domain ("
                + (bare.runs > 1 ? "median of \(bare.runs) runs, " : "") + "\(fixed(bare.cpuSeconds)) s for "
                + (bare.domains.map { "\($0) domains" } ?? "\(bare.requests) requests")
                + ", peak RSS \(mb(bare.maxRSSKilobytes)) MB"
                + (bare.failures > 0 ? ", \(bare.failures) requests failed" : "") + "); ratio "
                + "\(fixed(sample.cpuRatio))×",
            "  daemon peak RSS \(mb(daemon.peakRSSKilobytes)) MB at the end of the run, "
                + "\(mb(daemon.peakRSSAfterReadersKilobytes)) MB after the readers; disk writes "
                + "\(whole(sample.diskBytesPerCheck)) bytes per check",
            "  state directory \(whole(Double(daemon.stateDirectoryBytes))) bytes after a clean stop ("
                + "\(fixed(daemon.stopSeconds)) s): \(whole(sample.stateBytesPerCheck)) bytes per check over "
                + "\(daemon.checksAtExit) checks (\(daemon.runs) runs); database after a checkpoint "
                + "\(whole(sample.databaseBytesPerCheck)) bytes per check"
                + (daemon.steadyBytesPerCheck.map { "; \(whole($0)) per check after every domain's first" } ?? ""),
            "  status \(daemon.status.describe(cap: cap)); overview (GET /) \(daemon.overview.describe(cap: cap)); "
                + "/metrics \(daemon.metrics.describe(cap: cap))",
        ]
        if let pacedCPU = sample.pacedCPUPerCheck, let pacedRatio = sample.pacedRatio {
            lines.append(
                "  replay paced as the daemon sent it: \(ms(pacedCPU)) ms per check; daemon / paced "
                    + "\(fixed(pacedRatio))×; requests per check \(fixed(sample.requestsPerCheck))")
        }
        if let handshakes = daemon.handshakes {
            let checks = Double(max(1, daemon.checksAtExit))
            lines.append(
                "  TLS handshakes per check: daemon \(fixed(Double(handshakes) / checks)), bare "
                    + "\(fixed(Double(bare.handshakes ?? 0) / checks))")
        }
        lines.append("  through the run (s: checks recorded, domains checked, RSS MB): " + timeline(daemon.timeline))
        print(lines.joined(separator: "\n"))
        fflush(nil)
    }

    /// About ten evenly spaced samples.
    private static func timeline(_ samples: [DaemonRun.Sample]) -> String {
        let step = max(1, samples.count / 10)
        let shown = samples.enumerated().filter { $0.offset % step == step - 1 || $0.offset == samples.count - 1 }
        return shown.map {
            "\(whole($0.element.seconds)): \($0.element.checks), \($0.element.domainsChecked), "
                + "\(mb($0.element.rssKilobytes))"
        }.joined(separator: "; ")
    }

    static func summarize(_ samples: [Sample], options: Options) {
        func median(_ values: [Double]) -> Double { values.median ?? .nan }
        let cpu = median(samples.map(\.daemonCPUPerCheck))
        let cap = options.readerCapSeconds
        print(
            "medians of \(samples.count) runs (\(options.domains) domains, interval \(options.intervalSeconds)s, "
                + "\(options.seconds)s):")
        print(
            "  daemon CPU per check recorded   \(ms(cpu)) ms; bare libcurl client per domain "
                + "\(ms(median(samples.map(\.bareCPUPerCheck)))) ms; ratio \(fixed(median(samples.map(\.cpuRatio))))×")
        let paced = samples.compactMap(\.pacedRatio)
        if !paced.isEmpty {
            print(
                "  replay paced like the daemon    \(ms(median(samples.compactMap(\.pacedCPUPerCheck)))) ms per check; "
                    + "daemon / paced \(fixed(median(paced)))×")
        }
        print(
            "  daemon peak RSS                 \(mb(Int(median(samples.map { Double($0.daemon.peakRSSKilobytes) })))) MB "
                + "(after the readers \(mb(Int(median(samples.map { Double($0.daemon.peakRSSAfterReadersKilobytes) })))) MB)"
        )
        print(
            "  checks recorded                 \(whole(median(samples.map { Double($0.daemon.checks) }))) in "
                + "\(options.seconds) s")
        print(
            "  state directory per check       \(whole(median(samples.map(\.stateBytesPerCheck)))) bytes after a clean "
                + "stop")
        print("  disk writes per check           \(whole(median(samples.map(\.diskBytesPerCheck)))) bytes")
        for (name, figures) in [
            ("status", samples.map(\.daemon.status)), ("overview (GET /)", samples.map(\.daemon.overview)),
            ("/metrics", samples.map(\.daemon.metrics)),
        ] {
            // A read that got no answer counts as the slowest.
            let sorted = figures.sorted {
                ($0.answered ? $0.seconds : .infinity) < ($1.answered ? $1.seconds : .infinity)
            }
            print(
                "  \(name.padding(toLength: 32, withPad: " ", startingAt: 0))\(sorted[sorted.count / 2].describe(cap: cap))"
            )
        }
        let steady = samples.compactMap(\.daemon.steadyBytesPerCheck)
        if !steady.isEmpty {
            print("  database per check after every domain's first: \(whole(median(steady))) bytes")
        }
        // One core gives 900 CPU seconds per 15 minutes; each domain check costs `cpu` of them.
        print("  domains per core at a 15-minute interval (900 s / CPU per check): \(whole(900 / cpu))")
        fflush(nil)
    }

    static func ms(_ seconds: Double) -> String { String(format: "%.2f", seconds * 1000) }
    static func mb(_ kilobytes: Int) -> String { String(format: "%.1f", Double(kilobytes) / 1024) }
    static func fixed(_ value: Double) -> String { String(format: "%.2f", value) }
    static func whole(_ value: Double) -> String { String(Int(value.rounded())) }
}
