import Foundation
import TestSupport

/// Runs the daemon `runs` times against one fixture fleet, each time followed by the bare client replaying the
/// same requests twice (in a burst, and paced at the moments the daemon sent them), and prints each run and the
/// medians.
///
/// CPU per check is the daemon's utime + stime (process start, migrations and idle wake-ups included) over the
/// checks recorded in its database; the bare client's is its CPU per request times the daemon's requests per check.
enum Orchestrator {
    struct Sample {
        var daemon: DaemonRun
        var bare: BareResult
        var paced: BareResult
        var daemonCPUPerCheck: Double { daemon.cpuSeconds / Double(max(1, daemon.checks)) }
        var requestsPerCheck: Double { Double(daemon.replayLines.count) / Double(max(1, daemon.checksAtExit)) }
        var bareCPUPerCheck: Double { bare.cpuSeconds / Double(max(1, bare.requests)) * requestsPerCheck }
        var cpuRatio: Double { daemonCPUPerCheck / max(bareCPUPerCheck, 1e-9) }
        var pacedCPUPerCheck: Double { paced.cpuSeconds / Double(max(1, paced.requests)) * requestsPerCheck }
        var pacedRatio: Double { daemonCPUPerCheck / max(pacedCPUPerCheck, 1e-9) }
        var databaseBytesPerCheck: Double { Double(daemon.databaseBytes) / Double(max(1, daemon.checksAtExit)) }
        var stateBytesPerCheck: Double { Double(daemon.stateDirectoryBytes) / Double(max(1, daemon.checksAtExit)) }
    }

    static func run(_ options: Options) async throws {
        guard FileManager.default.isExecutableFile(atPath: options.binary) else {
            throw BenchmarkError("no aasa-monitor binary at \(options.binary); build it or pass --binary PATH")
        }
        let server = try await Fleet.start(domains: options.domains)
        print(
            "fixture fleet: \(options.domains) domains + CDN on 127.0.0.1:\(server.port); daemon \(options.binary); "
                + "interval \(options.intervalSeconds)s, \(options.seconds)s per run, concurrency "
                + "\(options.concurrency), \(options.runs) runs")
        print(
            "run\tchecks\tdaemon CPU ms/check\tpeak RSS MB\tDB B/check\tsteady DB B/check\tstate dir B/check\truns\t"
                + "req/check\t"
                + "TLS/check\tbare CPU ms/check\tbare RSS MB\tbare TLS/check\tCPU ratio\tpaced bare CPU ms/check\t"
                + "ratio to paced")
        var samples: [Sample] = []
        for run in 1...options.runs {
            let daemon = try await DaemonRun.measure(binary: options.binary, server: server, options: options)
            let handshakesBefore = server.activity.tlsHandshakesCompleted
            var bare = try BareResult.measure(
                urls: daemon.replayLines, server: server, options: options, timing: .burst)
            bare.handshakes = server.activity.tlsHandshakesCompleted - handshakesBefore
            let paced = try BareResult.measure(
                urls: daemon.replayLines, server: server, options: options, timing: .paced)
            let sample = Sample(daemon: daemon, bare: bare, paced: paced)
            samples.append(sample)
            let checks = Double(max(1, daemon.checksAtExit))
            print(
                "\(run)\t\(daemon.checks)\t\(ms(sample.daemonCPUPerCheck))\t\(mb(daemon.peakRSSKilobytes))\t"
                    + "\(whole(sample.databaseBytesPerCheck))\t\(daemon.steadyBytesPerCheck.map(whole) ?? "-")\t"
                    + "\(whole(sample.stateBytesPerCheck))\t\(daemon.runs)\t"
                    + "\(fixed(sample.requestsPerCheck))\t\(fixed(Double(daemon.handshakes) / checks))\t"
                    + "\(ms(sample.bareCPUPerCheck))\t\(mb(bare.maxRSSKilobytes))\t"
                    + "\(fixed(Double(bare.handshakes) / checks))\t\(fixed(sample.cpuRatio))×\t"
                    + "\(ms(sample.pacedCPUPerCheck))\t\(fixed(sample.pacedRatio))×"
                    + (bare.failures + paced.failures > 0
                        ? "\t(\(bare.failures + paced.failures) bare requests failed)" : ""))
            fflush(nil)
        }
        await server.shutdown()
        summarize(samples, options: options)
    }

    private static func summarize(_ samples: [Sample], options: Options) {
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        let cpu = median(samples.map(\.daemonCPUPerCheck))
        let bareCPU = median(samples.map(\.bareCPUPerCheck))
        let rss = median(samples.map { Double($0.daemon.peakRSSKilobytes) })
        let stateBytes = median(samples.map(\.stateBytesPerCheck))
        let databasePerDomain = median(samples.map { Double($0.daemon.databaseBytes) / Double(options.domains) })
        let bytesPerRun = median(samples.map { Double($0.daemon.databaseBytes) / Double(max(1, $0.daemon.runs)) })
        print("medians of \(samples.count) runs:")
        print(
            "  daemon CPU per domain check   \(ms(cpu)) ms (bare libcurl client \(ms(bareCPU)) ms; ratio "
                + "\(fixed(median(samples.map(\.cpuRatio))))×)")
        print(
            "  bare client paced like the daemon \(ms(median(samples.map(\.pacedCPUPerCheck)))) ms per check; "
                + "daemon / paced \(fixed(median(samples.map(\.pacedRatio))))×")
        print("  daemon peak RSS               \(mb(Int(rss))) MB")
        print(
            "  database per check            \(whole(median(samples.map(\.databaseBytesPerCheck)))) bytes after a "
                + "checkpoint; state directory as the daemon left it: \(whole(stateBytes)) bytes per check (database, "
                + "the 32 KB -shm, and the -wal a clean stop empties)")
        print("  database per domain           \(whole(databasePerDomain)) bytes; \(whole(bytesPerRun)) bytes per run")
        let steady = samples.compactMap(\.daemon.steadyBytesPerCheck)
        if !steady.isEmpty {
            let perCheck = median(steady)
            print(
                "  steady state (after each domain's first run): \(whole(perCheck)) database bytes per check; at a "
                    + "15-minute interval (96 checks a day) \(whole(perCheck * 96)) bytes per domain per day")
        }
        // One core gives 900 CPU seconds per 15 minutes; each domain check costs `cpu` of them.
        print("  domains per core at a 15-minute interval (900 s / CPU per check): \(whole(900 / cpu))")
    }

    private static func ms(_ seconds: Double) -> String { String(format: "%.2f", seconds * 1000) }
    private static func mb(_ kilobytes: Int) -> String { String(format: "%.1f", Double(kilobytes) / 1024) }
    private static func fixed(_ value: Double) -> String { String(format: "%.2f", value) }
    private static func whole(_ value: Double) -> String { String(Int(value.rounded())) }
}

/// The bare client's `RESULT` line.
struct BareResult {
    var requests: Int
    var failures: Int
    var cpuSeconds: Double
    var maxRSSKilobytes: Int
    var handshakes = 0

    /// Runs `daemon-benchmark bare` in a child process on `urls` and reads its result.
    static func measure(
        urls: [String], server: FixtureServer, options: Orchestrator.Options, timing: BareReplay.Timing
    ) throws -> BareResult {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("daemon-bench-urls-\(UUID())").path
        try urls.joined(separator: "\n").write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = [
            "bare", file, String(server.port), server.caFile, String(options.concurrency), timing.rawValue,
        ]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let line = String(decoding: data, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix("RESULT") }
        var fields: [String: String] = [:]
        for part in (line ?? "").split(separator: " ").dropFirst() {
            let pair = part.split(separator: "=", maxSplits: 1)
            if pair.count == 2 { fields[String(pair[0])] = String(pair[1]) }
        }
        guard let requests = fields["requests"].flatMap(Int.init), let failures = fields["failures"].flatMap(Int.init),
            let cpu = fields["cpu"].flatMap(Double.init), let rss = fields["maxrss_kb"].flatMap(Int.init)
        else { throw BenchmarkError("unexpected bare client output: \(String(decoding: data, as: UTF8.self))") }
        return BareResult(requests: requests, failures: failures, cpuSeconds: cpu, maxRSSKilobytes: rss)
    }
}
