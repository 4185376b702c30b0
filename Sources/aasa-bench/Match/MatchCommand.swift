import ArgumentParser

/// `aasa-bench match`: matcher decisions per second (`MatchBenchmark`); medians of several runs because these
/// machines are shared and noisy.
struct MatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "match", abstract: "Matcher decisions per second, realistic and adversarial (AASA core).")

    func run() { MatchBenchmark.run() }
}

/// `aasa-bench parse`: parse + canonicalize + hash throughput over the test corpus (`ParseBenchmark`).
struct ParseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parse", abstract: "Parse, canonicalize and hash throughput over the test corpus (AASA core).")

    func run() { ParseBenchmark.run() }
}
