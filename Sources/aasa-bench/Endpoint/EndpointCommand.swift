import ArgumentParser

struct EndpointCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "endpoint", abstract: "The server CPU time of the endpoint's answers (see EndpointBenchmark).")

    @Option(help: "Runs to take the median of.") var runs = 5
    @Option(help: "Domain counts, separated by commas.") var sizes = "500,1000,2000,4000"
    @Option(help: "Also write the rendered pages into DIR.") var html: String?
    @Option(help: "Record into a store in DIR instead of memory (one size).") var keepStore: String?
    @Option(help: "Measure the overview and the summary on a fleet stored in DIR, and stop.") var readStore: String?
    @Option(help: "The configured domains of --read-store, one a line.") var names: String?
    @Flag(help: "A verified credential's check under a wrong-password flood, and stop.") var passwordFlood = false

    func validate() throws {
        // What would trap or mix runs: no run to take a median of, one store directory for several sizes.
        guard runs >= 1 else { throw ValidationError("--runs must be at least 1") }
        let sizeCount = try counts(sizes, "--sizes").count
        if keepStore != nil && sizeCount > 1 {
            throw ValidationError("--keep-store records one size: add --sizes N")
        }
    }

    func run() async throws {
        let options = EndpointBenchmark.Options(
            runs: runs, htmlDirectory: html, keepStore: keepStore, readStore: readStore, namesFile: names,
            sizes: try counts(sizes, "--sizes"), passwordFlood: passwordFlood)
        try await runBenchmark("endpoint") { try await EndpointBenchmark.run(options) }
    }
}
