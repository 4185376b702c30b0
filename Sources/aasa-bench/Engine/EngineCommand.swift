import ArgumentParser
import TestSupport

// aasa-bench engine: measures the HTTP engine on a local fleet. See EngineOrchestrator, Serve and EngineFleet for
// the modes.
struct EngineCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "engine",
        abstract: "The HTTP engine alone on a local fleet, each client in a child process of its own.",
        subcommands: [ServeCommand.self, EngineFleetCommand.self])

    @Option var runs = 3
    @Option(help: "Fleet sizes in URLs, separated by commas.") var sizes = "1000,10000"
    @Option var concurrency = 64
    @Option(help: "An external client taking `fleet`'s arguments (a bare C libcurl client).") var baseline: String?

    func run() async throws {
        let options = EngineOrchestrator.Options(
            runs: runs, sizes: try counts(sizes, "--sizes"), concurrency: concurrency, baseline: baseline)
        try await runBenchmark("engine") { try EngineOrchestrator.run(options) }
    }
}

/// The fixture server in its own process, run by `EngineOrchestrator` (`Serve`).
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve", abstract: "The fixture server (run by `engine`).", shouldDisplay: false)

    @Argument var protocols = "h2"

    func run() async throws {
        let chosen: FixtureServer.Protocols = protocols == "h1" ? .http1Only : .http2AndHTTP1
        try await runBenchmark("engine") { try await Serve.run(protocols: chosen) }
    }
}

/// One engine fetching a fleet, run by `EngineOrchestrator` and by `check` as the bare client (`EngineFleet`).
struct EngineFleetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fleet", abstract: "One engine fetching a fleet (run by `engine` and `check`).",
        shouldDisplay: false)

    @Argument var count: Int
    @Argument(help: "h2 or h1") var proto: String
    @Argument var port: Int
    @Argument var caFile: String
    @Argument var concurrency: Int
    @Argument(help: "like-check: the libcurl work `check` does.") var likeCheck: String?

    func run() async throws {
        guard likeCheck == nil || likeCheck == "like-check" else {
            throw ValidationError(
                "usage: aasa-bench engine fleet <n> <h2|h1> <port> <ca-file> <concurrency> [like-check]")
        }
        try await runBenchmark("engine") {
            try await EngineFleet.run(
                count: count, http1: proto == "h1", port: port, caFile: caFile, concurrency: concurrency,
                likeCheck: likeCheck != nil)
        }
    }
}
