import BenchmarkSupport
import Foundation

/// `aasa-bench engine [--runs R] [--sizes 1000,10000] [--concurrency 64] [--baseline PATH]`: starts the fixture
/// server in a child process, runs each fleet configuration in a fresh child process (so its `getrusage` and peak
/// RSS are its own), and prints medians.
///
/// `--baseline PATH` also runs an external program with the same arguments as `fleet` (for example a bare C
/// libcurl client) that prints the same `RESULT` line, to report the engine's overhead against it.
enum EngineOrchestrator {
    struct Options {
        var runs = 3
        var sizes = [1_000, 10_000]
        var concurrency = 64
        var baseline: String?
    }

    struct Sample {
        var wall: Double
        var cpu: Double
        var maxRSSKilobytes: Int
        var failures: Int
        var handshakes: Int
    }

    static func run(_ options: Options) throws {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        let server = try ChildProcess(executable, ["engine", "serve"])
        defer { server.finish() }
        let ready = try server.readLine().split(separator: " ")
        guard ready.count == 3, ready[0] == "READY" else { throw BenchmarkError("server said: \(ready)") }
        let port = String(ready[1])
        let caFile = String(ready[2])
        print("fixture server on port \(port) in its own process; client CPU is the fleet process's own rusage")
        print(
            "client\tproto\tN\treq/s\tCPU ms/1000 req\tpeak RSS MB\thandshakes\tfailures\t(median of \(options.runs))")
        let clients: [(String, String)] = [("engine", executable)] + (options.baseline.map { [("bare-c", $0)] } ?? [])
        for size in options.sizes {
            for proto in ["h2", "h1"] {
                for (name, path) in clients {
                    var samples: [Sample] = []
                    for _ in 0..<options.runs {
                        let arguments =
                            (name == "engine" ? ["engine", "fleet"] : [])
                            + [String(size), proto, port, caFile, String(options.concurrency)]
                        samples.append(try measure(path, arguments, server: server))
                    }
                    report(name: name, proto: proto, size: size, samples: samples)
                }
            }
        }
    }

    private static func measure(_ path: String, _ arguments: [String], server: ChildProcess) throws -> Sample {
        let before = try server.handshakes()
        let client = try ChildProcess(path, arguments)
        let line = try client.readLine()
        client.finish()
        var fields: [String: String] = [:]
        for part in line.split(separator: " ").dropFirst() {
            let pair = part.split(separator: "=", maxSplits: 1)
            if pair.count == 2 { fields[String(pair[0])] = String(pair[1]) }
        }
        guard line.hasPrefix("RESULT"), let wall = fields["wall"].flatMap(Double.init),
            let cpu = fields["cpu"].flatMap(Double.init), let rss = fields["maxrss_kb"].flatMap(Int.init)
        else { throw BenchmarkError("unexpected client output: \(line)") }
        let failures = fields["failures"].flatMap(Int.init) ?? -1
        return Sample(
            wall: wall, cpu: cpu, maxRSSKilobytes: rss, failures: failures,
            handshakes: try server.handshakes() - before)
    }

    private static func report(name: String, proto: String, size: Int, samples: [Sample]) {
        func median(_ values: [Double]) -> Double { values.median ?? .nan }
        let wall = median(samples.map(\.wall))
        let cpu = median(samples.map(\.cpu))
        let rss = median(samples.map { Double($0.maxRSSKilobytes) }) / 1024
        let requestsPerSecond = Double(size) / wall
        let cpuPerThousand = cpu / Double(size) * 1000 * 1000
        let handshakes = samples.map(\.handshakes).sorted()[samples.count / 2]
        let failures = samples.map(\.failures).max() ?? 0
        print(
            "\(name)\t\(proto)\t\(size)\t\(Int(requestsPerSecond))\t\(String(format: "%.0f", cpuPerThousand))\t"
                + "\(String(format: "%.1f", rss))\t\(handshakes)\t\(failures)")
        fflush(nil)
    }
}

/// A child process with line-oriented stdio.
final class ChildProcess {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()

    init(_ path: String, _ arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.standardInput = input
        process.standardOutput = output
        try process.run()
    }

    /// Reads one line from the child's stdout (blocking: the orchestrator does nothing else meanwhile).
    func readLine() throws -> String {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        let descriptor = output.fileHandleForReading.fileDescriptor
        while read(descriptor, &byte, 1) == 1 {
            if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
        throw BenchmarkError("child \(process.executableURL?.path ?? "?") closed its output")
    }

    /// Asks the fixture server how many TLS handshakes it has completed.
    func handshakes() throws -> Int {
        input.fileHandleForWriting.write(Data("stats\n".utf8))
        let fields = try readLine().split(separator: " ")
        guard fields.count >= 2, let count = Int(fields[1]) else { throw BenchmarkError("bad stats: \(fields)") }
        return count
    }

    /// Closes stdin (the server exits on EOF) and waits for the process.
    func finish() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}
