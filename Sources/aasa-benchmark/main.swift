/// `aasa-benchmark parse | match`: throughput figures for the AASA core, printed, never asserted.
///
/// Build with `swift build -c release --product aasa-benchmark`; figures are medians of several runs because
/// these machines are shared and noisy.
let mode = CommandLine.arguments.dropFirst().first ?? "all"
switch mode {
case "match":
    MatchBenchmark.run()
case "parse":
    ParseBenchmark.run()
case "all":
    ParseBenchmark.run()
    MatchBenchmark.run()
default:
    print("usage: aasa-benchmark [parse | match | all]")
}
