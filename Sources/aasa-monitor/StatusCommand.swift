import ArgumentParser
import Foundation
import MonitorCheck
import MonitorCore
import MonitorDaemon
import MonitorEvaluation
import MonitorStatus
import MonitorStore

/// `aasa-monitor status`: what the daemon knows, read straight from its database (works while it is stopped).
struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show whether the daemon is alive and each domain's verdict, problems, CDN state and certificate.",
        discussion: """
            Without a domain it prints a summary: the counts by verdict, the monitor's own conditions, the silences \
            in force and the domains with problems (not ready), worst first, at most \(StatusReader.summaryLimit), \
            then how many more --all would list; --all lists every domain in full. With domains, or with --json, \
            every domain asked for is printed in full. \
            The first line names the database read. Without --config (or $AASA_MONITOR_CONFIG) the state is found as \
            run finds it: from /etc/aasa-monitor/config.yml when it can be read, else in /var/lib/aasa-monitor or, \
            for a user who cannot write there, the per-user state directory run falls back to; every domain in the \
            database is shown unless the configuration lists some. Exit codes: 0 state read; 1 no state yet or \
            unreadable state; 2 usage or configuration error.
            """
    )

    @OptionGroup var configuration: ConfigurationOptions
    @OptionGroup var state: StateOptions

    @Flag(help: "Print one JSON document (every domain asked for, in full).")
    var json = false

    @Flag(help: "List every domain in full, not only the summary and the domains with problems.")
    var all = false

    @Argument(help: "Only these domains.", completion: CompletionCandidates.domains)
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
        let located = try state.locate(configuration: configuration, environment: environment)
        let directory = located.directory
        if let names { try located.requireWatched(names) }
        // Without names, the configured domains (this shard's, with `shard`): a removed domain leaves the report.
        if names == nil { names = located.configuredDomains }
        let reader: StoreReader
        do {
            reader = try StoreReader.openReadOnly(directory: directory.path)
        } catch let error as StoreError {
            if json, error.reason == .missing {
                print(Self.noStateJSON)
            } else if !json {
                printForTerminal(located.databaseLine(error.path))
            }
            throw CommandFailure(message: "error: \(error)", exitCode: 1)
        } catch {
            if !json { printForTerminal(located.databaseLine("in \(directory.path)")) }
            throw CommandFailure(message: "error: \(error)", exitCode: 1)
        }
        let database = reader.path
        if !json { printForTerminal(located.databaseLine(database)) }
        if !json, !all, domains.isEmpty {
            try await printSummary(reader: reader, configured: names, located: located)
            return
        }
        var snapshot: StatusSnapshot
        do {
            let now = Date()
            snapshot = try await StatusReader(store: reader).snapshot(
                now: now, domains: names, silences: located.configuration?.maintenance.silences(at: now) ?? [])
        } catch {
            throw CommandFailure(message: "error: cannot read the state: \(error)", exitCode: 1)
        }
        // Named domains say which apps' claims they are checked for: one stored report each, read for a few only.
        if !domains.isEmpty {
            do {
                for index in snapshot.domains.indices {
                    snapshot.domains[index].apps = try await StatusReader(store: reader).claimingApps(
                        domain: snapshot.domains[index].domain)
                }
            } catch {
                throw CommandFailure(message: "error: cannot read the state: \(error)", exitCode: 1)
            }
        }
        let checked = Set(snapshot.domains.map(\.domain))
        let unchecked = (names ?? []).filter { !checked.contains($0) }
        if json {
            try JSONOutput.print(snapshot)
        } else {
            printForTerminal(StatusText.render(snapshot))
            if !unchecked.isEmpty {
                printForTerminal("configured, not checked yet: \(unchecked.joined(separator: ", "))")
            }
        }
        // The documented exit 1: no state yet (nothing checked, or none of the named domains).
        // A fresh package install's configuration lists no domains: say so instead of "no state yet for ".
        if snapshot.domains.isEmpty {
            let listsNone = located.configuration.map { $0.domains.isEmpty && $0.apps.isEmpty } ?? false
            let subject =
                names.map { $0.joined(separator: ", ") }
                ?? (listsNone ? "any domain: the configuration lists none under domains:" : "any domain")
            throw CommandFailure(message: "no state yet for \(subject) in \(database)", exitCode: 1)
        }
    }

    /// The summary without a domain: counts, conditions, silences, the first problems (`StatusSummary`).
    private func printSummary(reader: StoreReader, configured: [String]?, located: StateOptions.Located) async throws {
        let summary: StatusSummary
        do {
            let now = Date()
            summary = try await StatusReader(store: reader).summary(
                now: now, configured: configured,
                silences: located.configuration?.maintenance.silences(at: now) ?? [])
        } catch {
            throw CommandFailure(message: "error: cannot read the state: \(error)", exitCode: 1)
        }
        printForTerminal(StatusText.render(summary))
        // The documented exit 1: no state yet.
        if summary.checked == 0 {
            let listsNone = located.configuration.map { $0.domains.isEmpty && $0.apps.isEmpty } ?? false
            let subject = listsNone ? "any domain: the configuration lists none under domains:" : "any domain"
            throw CommandFailure(message: "no state yet for \(subject) in \(reader.path)", exitCode: 1)
        }
    }

    /// `status --json` when there is no database yet: the document's shape with nothing in it, so scripts that
    /// parse it never meet an empty output.
    static let noStateJSON =
        #"{"daemon":{"heartbeat":null,"heartbeat_age":null,"host":null,"pid":null,"running":false,"#
        + #""started_at":null,"version":null},"domains":[],"#
        + #""monitor":[],"outbox":{"dead":0,"failing_webhooks":[],"next_attempt":null,"pending":0,"retrying":0}}"#
}

/// `aasa-monitor history DOMAIN`: the domain's timeline — origin changes, Apple catching up, verdict changes.
struct HistoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract:
            "Print a domain's timeline: origin changes, when Apple's copy caught up and the delay, verdicts and why "
            + "they changed, alerts firing and resolving.",
        discussion: """
            The first line names the database read. Without --config (or $AASA_MONITOR_CONFIG) the state is found as \
            run finds it: from /etc/aasa-monitor/config.yml when it can be read, else in /var/lib/aasa-monitor or, \
            for a user who cannot write there, the per-user state directory run falls back to; every domain in the \
            database is shown unless the configuration lists some. Exit codes: 0 state read; 1 no state yet or \
            unreadable state; 2 usage or configuration error.
            """
    )

    @OptionGroup var configuration: ConfigurationOptions
    @OptionGroup var state: StateOptions

    @Flag(help: "Print one JSON document.")
    var json = false

    @Option(help: "The most events to show, newest kept.")
    var limit: Int = 1000

    @Argument(help: "The domain.", completion: CompletionCandidates.domains)
    var domain: String

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let name: String
        do { name = try DomainName.normalize(domain) } catch { throw CommandFailure.usage(error.description) }
        guard limit > 0 else { throw CommandFailure.usage("--limit must be positive") }
        let located = try state.locate(configuration: configuration, environment: environment)
        try located.requireWatched([name])
        let reader: StoreReader
        do { reader = try StoreReader.openReadOnly(directory: located.directory.path) } catch {
            if !json {
                printForTerminal(located.databaseLine((error as? StoreError)?.path ?? "in \(located.directory.path)"))
            }
            throw CommandFailure(message: "error: \(error)", exitCode: 1)
        }
        if !json { printForTerminal(located.databaseLine(reader.path)) }
        let report: HistoryReport
        do {
            report = try await StatusReader(store: reader).history(domain: name, limit: limit)
        } catch {
            throw CommandFailure(message: "error: cannot read the state: \(error)", exitCode: 1)
        }
        if json {
            try JSONOutput.print(report)
        } else {
            printForTerminal(HistoryText.render(report))
        }
        if report.events.isEmpty {
            throw CommandFailure(message: "no history for \(name) yet", exitCode: 1)
        }
    }
}
