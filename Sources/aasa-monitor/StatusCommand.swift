import ArgumentParser
import Foundation
import Monitor

/// `aasa-monitor status`: what the daemon knows, read straight from its database (works while it is stopped).
struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show whether the daemon is alive and each domain's verdict, problems, CDN state and certificate.",
        discussion: "Exit codes: 0 state read; 1 no state yet or unreadable state; 2 usage or configuration error."
    )

    @OptionGroup var configuration: ConfigurationOptions
    @OptionGroup var state: StateOptions

    @Flag(help: "Print one JSON document.")
    var json = false

    @Argument(help: "Only these domains.")
    var domains: [String] = []

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        var names: [String]?
        if !domains.isEmpty {
            var normalized: [String] = []
            for raw in domains {
                do { normalized.append(try DomainName.normalize(raw)) } catch {
                    throw CommandFailure.usage(error.description)
                }
            }
            names = normalized
        }
        let (reader, loaded) = try state.openReader(configuration: configuration, environment: environment)
        // Without names, the configured domains: a domain removed from the configuration leaves the report.
        if names == nil, let loaded { names = loaded.domains.map(\.name) }
        let snapshot: StatusSnapshot
        do {
            snapshot = try await StatusReader(store: reader).snapshot(now: Date(), domains: names)
        } catch {
            throw CommandFailure(message: "error: cannot read the state: \(error)", exitCode: 1)
        }
        if json {
            try JSONOutput.print(snapshot)
        } else {
            print(StatusText.render(snapshot))
        }
        // The documented exit 1: no state yet (nothing checked, or none of the named domains).
        // A fresh package install's configuration lists no domains: say so instead of "no state yet for ".
        if snapshot.domains.isEmpty {
            let subject =
                names.map {
                    $0.isEmpty ? "any domain: the configuration lists none under domains:" : $0.joined(separator: ", ")
                } ?? "any domain"
            throw CommandFailure(message: "no state yet for \(subject)", exitCode: 1)
        }
    }
}

/// `aasa-monitor history DOMAIN`: the domain's timeline — origin changes, Apple catching up, verdict changes.
struct HistoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Print a domain's timeline: origin changes, when Apple's copy caught up and the delay, verdicts.",
        discussion: "Exit codes: 0 state read; 1 no state yet or unreadable state; 2 usage or configuration error."
    )

    @OptionGroup var configuration: ConfigurationOptions
    @OptionGroup var state: StateOptions

    @Flag(help: "Print one JSON document.")
    var json = false

    @Option(help: "The most events to show, newest kept.")
    var limit: Int = 1000

    @Argument(help: "The domain.")
    var domain: String

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let name: String
        do { name = try DomainName.normalize(domain) } catch { throw CommandFailure.usage(error.description) }
        guard limit > 0 else { throw CommandFailure.usage("--limit must be positive") }
        let (reader, _) = try state.openReader(configuration: configuration, environment: environment)
        let report: HistoryReport
        do {
            report = try await StatusReader(store: reader).history(domain: name, limit: limit)
        } catch {
            throw CommandFailure(message: "error: cannot read the state: \(error)", exitCode: 1)
        }
        if json {
            try JSONOutput.print(report)
        } else {
            print(HistoryText.render(report))
        }
        if report.events.isEmpty {
            throw CommandFailure(message: "no history for \(name) yet", exitCode: 1)
        }
    }
}
