import BenchmarkSupport
import Foundation
import TestSupport

/// Runs the daemon `runs` times against one fleet, each run followed by the bare libcurl client on the same
/// fleet, and prints each run and the medians (`DaemonOrchestrator+Report`).
///
/// Against nginx (issue 24's measure), the bare client is `BareFleet`: the daemon's 4 URLs for every domain,
/// `bareConcurrency` domains at a time, all at once. Against the in-process fleet it is `BareReplay` of the
/// requests the daemon made, in a burst and paced at the moments the daemon sent them.
///
/// CPU per check is the daemon's utime + stime (process start, migrations and idle wake-ups included) over the
/// checks recorded in its database; the bare client's is its CPU per domain (nginx), or per request times the
/// daemon's requests per check (replay).
enum DaemonOrchestrator {
    struct Sample {
        var daemon: DaemonRun
        var bare: BareResult
        /// The replay paced as the daemon sent its requests (in-process fleet only).
        var paced: BareResult?
        /// /proc/loadavg when the daemon's run ended.
        var load: String
        var daemonCPUPerCheck: Double { daemon.cpuSeconds / Double(max(1, daemon.checks)) }
        var requestsPerCheck: Double { Double(daemon.replayLines.count) / Double(max(1, daemon.checksAtExit)) }
        /// The bare client's CPU for one domain's four requests.
        var bareCPUPerCheck: Double { bare.cpuPerCheck(requestsPerCheck: requestsPerCheck) }
        var cpuRatio: Double { daemonCPUPerCheck / max(bareCPUPerCheck, 1e-9) }
        var pacedCPUPerCheck: Double? { paced?.cpuPerCheck(requestsPerCheck: requestsPerCheck) }
        var pacedRatio: Double? { pacedCPUPerCheck.map { daemonCPUPerCheck / max($0, 1e-9) } }
        var databaseBytesPerCheck: Double { Double(daemon.databaseBytes) / Double(max(1, daemon.checksAtExit)) }
        var diskBytesPerCheck: Double { Double(daemon.diskWrittenBytes) / Double(max(1, daemon.checks)) }
        var stateBytesPerCheck: Double { Double(daemon.stateDirectoryBytes) / Double(max(1, daemon.checksAtExit)) }
    }

    static func run(_ options: Options) async throws {
        guard FileManager.default.isExecutableFile(atPath: options.binary) else {
            throw BenchmarkError("no aasa-monitor binary at \(options.binary); build it or pass --binary PATH")
        }
        switch options.server {
        case .nginx:
            let fleet = try await NginxFleet.start()
            do {
                try await run(options, target: .nginx(fleet), fleetDescription: "nginx on 127.0.0.1:\(fleet.port)")
            } catch {
                await fleet.stop()
                throw error
            }
            await fleet.stop()
        case .fixture:
            let server = try await DaemonFleet.start(domains: options.domains)
            do {
                try await run(
                    options, target: .fixture(server),
                    fleetDescription: "the in-process fixture fleet on 127.0.0.1:\(server.port)")
            } catch {
                await server.shutdown()
                throw error
            }
            await server.shutdown()
        }
    }

    private static func run(_ options: Options, target: DaemonFleet.Target, fleetDescription: String) async throws {
        print(
            "\(options.domains) domains + CDN served by \(fleetDescription); daemon \(options.binary); interval "
                + "\(options.intervalSeconds)s, \(options.seconds)s per run, daemon concurrency \(options.concurrency), "
                + "bare client \(options.bareConcurrency) domains at a time, \(options.runs) runs; "
                + "\(ProcessInfo.processInfo.activeProcessorCount) CPUs, load \(loadAverage())")
        fflush(nil)
        var samples: [Sample] = []
        for run in 1...options.runs {
            let daemon = try await DaemonRun.measure(binary: options.binary, target: target, options: options)
            let load = loadAverage()
            let sample: Sample
            if let server = target.fixture {
                let handshakesBefore = server.activity.tlsHandshakesCompleted
                var bare = try BareResult.measure(
                    arguments: [
                        "bare", "", String(server.port), server.caFile, String(options.bareConcurrency), "burst",
                    ], replay: daemon.replayLines)
                bare.handshakes = server.activity.tlsHandshakesCompleted - handshakesBefore
                let paced = try BareResult.measure(
                    arguments: ["bare", "", String(server.port), server.caFile, String(options.concurrency), "paced"],
                    replay: daemon.replayLines)
                sample = Sample(daemon: daemon, bare: bare, paced: paced, load: load)
            } else {
                let port = target.connectTo.split(separator: ":").last.map(String.init) ?? ""
                let bares = try (0..<options.bareRuns).map { _ in
                    try BareResult.measure(
                        arguments: [
                            "bare-fleet", String(min(options.bareDomains ?? options.domains, options.domains)), port,
                            target.caFile, String(options.bareConcurrency),
                        ], replay: nil)
                }
                var bare = bares.sorted { $0.cpuSeconds < $1.cpuSeconds }[bares.count / 2]
                bare.runs = bares.count
                sample = Sample(daemon: daemon, bare: bare, paced: nil, load: load)
            }
            samples.append(sample)
            report(run: run, sample, options: options)
        }
        summarize(samples, options: options)
    }

    /// The load averages (1, 5 and 15 minutes) and running/total tasks, as /proc/loadavg has them.
    static func loadAverage() -> String {
        let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? ""
        return text.split(separator: " ").prefix(4).joined(separator: " ")
    }
}

/// The bare client's `RESULT` line.
struct BareResult {
    var requests: Int
    var failures: Int
    var cpuSeconds: Double
    var maxRSSKilobytes: Int
    /// Domains fetched (`bare-fleet`); nil for a replay, whose requests are counted instead.
    var domains: Int?
    var handshakes: Int?
    /// How many runs this is the median of (`--bare-runs`).
    var runs = 1

    /// CPU for one domain's check: per domain, or per request times the daemon's requests per check.
    func cpuPerCheck(requestsPerCheck: Double) -> Double {
        if let domains { return cpuSeconds / Double(max(1, domains)) }
        return cpuSeconds / Double(max(1, requests)) * requestsPerCheck
    }

    /// Runs `aasa-bench daemon ARGUMENTS` in a child process and reads its result; `replay`, when given, is written
    /// to a file whose path replaces the second argument.
    static func measure(arguments: [String], replay: [String]?) throws -> BareResult {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("daemon-bench-urls-\(UUID())").path
        var arguments = arguments
        if let replay {
            try replay.joined(separator: "\n").write(toFile: file, atomically: true, encoding: .utf8)
            arguments[1] = file
        }
        defer { try? FileManager.default.removeItem(atPath: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = ["daemon"] + arguments
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
        return BareResult(
            requests: requests, failures: failures, cpuSeconds: cpu, maxRSSKilobytes: rss,
            domains: fields["domains"].flatMap(Int.init))
    }
}
