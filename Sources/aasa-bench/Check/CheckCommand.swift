import ArgumentParser

struct CheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "`aasa-monitor check` on 100 to 10,000 fixture domains, beside the bare HTTP engine.")

    @Option var runs = 3
    @Option(help: "Domain counts, separated by commas.") var sizes = "100,1000,10000"
    @Option(help: "The aasa-monitor to run (default: next to this executable).") var binary: String?
    @Option(help: "The aasa-bench to run as the bare client, or none (default: this one).") var bare: String?
    @Option(help: "check's --concurrency.") var concurrency = 32
    @Option(help: "json, json-lines or text.") var format = "json"
    @Option(help: "arguments, or config (the domains in a configuration file).") var domains = "arguments"

    func run() async throws {
        var options = CheckBenchmark.Options()
        options.runs = runs
        options.sizes = try counts(sizes, "--sizes")
        options.concurrency = concurrency
        options.format = format
        options.domainsVia = domains
        if let binary { options.binary = binary }
        if let bare { options.bare = bare == "none" ? nil : bare }
        try await runBenchmark("check") { try await CheckBenchmark.run(options) }
    }
}
