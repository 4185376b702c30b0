import ArgumentParser
import Foundation
import MonitorCore
import MonitorDaemon
import MonitorEvaluation

/// `aasa-monitor webhook …`: commands about webhooks.
struct WebhookCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webhook",
        abstract: "Work with the configured webhooks.",
        subcommands: [WebhookTestCommand.self]
    )
}

/// `aasa-monitor webhook test [NAME]`: sends a sample event about a configured domain the way the daemon sends every
/// event and prints what the receiver answered.
struct WebhookTestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Send a test event about a configured domain to a webhook (or to all); print the receiver's answer.",
        discussion: "Exit codes: 0 every receiver answered 2xx; 1 a delivery failed; 2 usage or configuration error."
    )

    @OptionGroup var configuration: ConfigurationOptions

    @Argument(help: "The webhook's name; all webhooks when omitted.", completion: CompletionCandidates.webhooks)
    var name: String?

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let loaded = try configuration.load(environment: environment)
        var webhooks = loaded.webhooks
        if let name {
            webhooks = webhooks.filter { $0.name == name }
            guard !webhooks.isEmpty else {
                let known = loaded.webhooks.map(\.name).joined(separator: ", ")
                throw CommandFailure.usage("no webhook named '\(name)' (configured: \(known.isEmpty ? "none" : known))")
            }
        }
        guard !webhooks.isEmpty else { throw CommandFailure.usage("the configuration has no webhooks") }
        signal(SIGPIPE, SIG_IGN)
        // This daemon's domains (its shard's, with `shard`), so the event is about one it would really send.
        let domains = loaded.shardDomains.map(\.name) + loaded.domains.map(\.name)
        let results = try await WebhookTester.send(to: webhooks, domains: domains, now: Date())
        var failed = false
        for result in results {
            printForTerminal(result.line)
            failed = failed || !result.delivered
        }
        if failed { throw CommandFailure.negative }
    }
}
