import ArgumentParser
import BenchmarkSupport
import Foundation

/// `aasa-bench`: aasa-monitor's benchmarks, one subcommand each. Figures are printed, never asserted.
///
/// Build with `swift build -c release --product aasa-monitor && swift build -c release --product aasa-bench`: the
/// benchmarks that run the real binary (`daemon`, `check`, `soak`, `fd-exhaustion`) find `aasa-monitor` next to
/// `aasa-bench` unless given `--binary PATH`.
@main
struct AasaBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "aasa-bench",
        abstract: "aasa-monitor's benchmarks: figures printed, never asserted.",
        subcommands: [
            DaemonCommand.self, CheckCommand.self, EndpointCommand.self, SoakCommand.self, FDExhaustionCommand.self,
            EngineCommand.self, MatchCommand.self, ParseCommand.self,
        ])
}

/// Runs a benchmark's `body` as its own executable did: SIGPIPE ignored (a fixture connection closed by the other
/// side must not end the run), and an error printed as `aasa-bench NAME: error` before exiting with `status`.
func runBenchmark(_ name: String, status: Int32 = 1, _ body: () async throws -> Void) async throws {
    signal(SIGPIPE, SIG_IGN)
    do {
        try await body()
    } catch let exit as ExitCode {
        throw exit
    } catch {
        FileHandle.standardError.write(Data("aasa-bench \(name): \(error)\n".utf8))
        throw ExitCode(status)
    }
}

/// `1000,10000` as counts; a part that is not a whole number above 0 is refused.
func counts(_ text: String, _ flag: String) throws -> [Int] {
    let values = text.split(separator: ",").map { Int($0) ?? 0 }
    guard !values.isEmpty, values.allSatisfy({ $0 > 0 }) else {
        throw ValidationError("\(flag) takes positive counts separated by commas, like 1000,10000")
    }
    return values
}

/// Refuses a missing `aasa-monitor` before anything starts.
func requireMonitor(_ binary: String) throws {
    guard FileManager.default.isExecutableFile(atPath: binary) else {
        throw ValidationError("no aasa-monitor binary at \(binary): build it or give --binary")
    }
}
