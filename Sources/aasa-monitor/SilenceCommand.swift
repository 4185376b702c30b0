import AASA
import ArgumentParser
import Foundation
import MonitorCore
import MonitorDaemon
import MonitorEvaluation
import MonitorStatus
import MonitorStore

/// `aasa-monitor silence …`: mute what is sent about domains for a while, saying who and why.
///
/// Silences are rows of the daemon's database, so these commands work with the daemon running or stopped; the
/// running daemon reads them in every check (see `MonitorStore+Silences`).
struct SilenceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "silence",
        abstract: "Silence what is sent about domains for a while: add, list and expire silences.",
        subcommands: [SilenceAddCommand.self, SilenceListCommand.self, SilenceExpireCommand.self]
    )

    /// Who runs the command: the user behind `sudo`, else the login name.
    static func currentUser(_ environment: [String: String]) -> String {
        for key in ["SUDO_USER", "USER", "LOGNAME"] {
            if let name = environment[key], !name.isEmpty { return name }
        }
        if let entry = getpwuid(geteuid()), let name = entry.pointee.pw_name { return String(cString: name) }
        return "uid \(geteuid())"
    }
}

/// `aasa-monitor silence add DOMAIN… | --all --for DURATION --reason TEXT [--code CODE] [--author NAME]`.
struct SilenceAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Send nothing about these domains (or one finding code of them) for a while; alerts still run.",
        discussion: """
            During the silence the alerts run as usual and status and the page say "silenced until … by …: reason", \
            but nothing is sent. When it ends, alerts still firing are sent once; an alert that fired and resolved \
            inside it is never sent. Works with the daemon running (it sees the silence at each domain's next \
            check) or stopped. Before the daemon's first start it creates the database, but only in the \
            configuration's state_dir (not a --state-dir) and not as root in a directory another user owns (run it \
            as that user). Exit codes: 0 added; 1 no database there, or it cannot be written; 2 usage or \
            configuration error.
            """
    )

    @OptionGroup var configuration: ConfigurationOptions
    @OptionGroup var state: StateOptions

    @Argument(help: "The domains to silence.", completion: CompletionCandidates.domains)
    var domains: [String] = []

    @Flag(help: "Silence every domain.")
    var all = false

    @Option(help: "Only alerts of this finding code (as explain --list names them).")
    var code: String?

    @Option(name: .customLong("for"), help: "How long, like 30m, 2h or 1d.")
    var duration: String

    @Option(help: "Why, for whoever reads status.")
    var reason: String

    @Option(help: "Who silences (default: the user running the command).")
    var author: String?

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let now = Date()
        let order: SilenceOrder
        do {
            order = try SilenceOrder(
                domains: domains, all: all, code: code, duration: duration, endsAt: nil, reason: reason,
                author: author ?? SilenceCommand.currentUser(environment), now: now)
        } catch {
            // The API's field names are this command's options; the domains are its arguments.
            throw CommandFailure.usage(error.field == "domains" ? error.message : "--\(error.field): \(error.message)")
        }
        let located = try state.locate(configuration: configuration, environment: environment)
        if let names = order.domains { try located.requireWatched(names) }
        let silence: Silence
        if let shared = try await ClusterAccess.withStore(
            located.configuration, { try await order.add(to: $0, at: now) })
        {
            silence = shared
        } else {
            let store = try await StateAccess.creatingStore(
                located, configured: (state.stateDirectory ?? "").isEmpty && located.configuration != nil)
            defer { try? store.close() }
            silence = try await order.add(to: store, at: now)
        }
        printForTerminal(
            "silence \(silence.id): \(SilenceListCommand.scope(silence)) \(SilenceStatus(silence, now: now).shownText)")
    }
}

/// `aasa-monitor silence list [--json]`.
struct SilenceListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the silences in force or to come, and the configuration's maintenance windows open now.",
        discussion: "Exit codes: 0 listed (none is not an error); 1 no state yet or unreadable state; 2 usage or "
            + "configuration error."
    )

    @OptionGroup var configuration: ConfigurationOptions
    @OptionGroup var state: StateOptions

    @Flag(help: "Print one JSON array.")
    var json = false

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let located = try state.locate(configuration: configuration, environment: environment)
        let now = Date()
        let maintenance = located.configuration?.maintenance.silences(at: now) ?? []
        // Without a database, JSON still lists the open maintenance windows before the refusal.
        let windows = try await SilenceBook.list(reader: nil, maintenance: maintenance, now: now)
        let reader = try StateAccess.reader(located, json: json) { try JSONOutput.print(windows) }
        let silences: [SilenceStatus]
        do {
            silences = try await SilenceBook.list(reader: reader, maintenance: maintenance, now: now)
        } catch {
            throw CommandFailure(message: "error: cannot read the silences: \(error)", exitCode: 1)
        }
        if json {
            try JSONOutput.print(silences)
            return
        }
        if silences.isEmpty { printForTerminal("no silences") }
        for status in silences {
            printForTerminal("\(status.id)  \(status.state)  \(Self.scope(status.domains))  \(status.shownText)")
        }
    }

    /// `example.com, example.org` or `every domain`.
    static func scope(_ silence: Silence) -> String { scope(silence.domains) }

    static func scope(_ domains: [String]?) -> String {
        domains.map { $0.joined(separator: ", ") } ?? "every domain"
    }
}

/// `aasa-monitor silence expire ID`.
struct SilenceExpireCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "expire",
        abstract: "End a silence now; alerts still firing are then sent once, at each domain's next check.",
        discussion: "Exit codes: 0 expired (or already over); 1 no such silence, no database, or the database cannot "
            + "be written; 2 usage or configuration error."
    )

    @OptionGroup var configuration: ConfigurationOptions
    @OptionGroup var state: StateOptions

    @Argument(help: "The silence's id, as silence list shows it.")
    var id: String

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let number: Int64
        do { number = try SilenceBook.id(id) } catch { throw CommandFailure.usage(error.message) }
        let located = try state.locate(configuration: configuration, environment: environment)
        let now = Date()
        let author = SilenceCommand.currentUser(environment)
        let expired: Silence?
        if let cluster = try await ClusterAccess.withStore(
            located.configuration, { try await SilenceBook.expire(id: number, store: $0, by: author, now: now) })
        {
            expired = cluster
        } else {
            let store = try await StateAccess.store(located)
            defer { try? store.close() }
            expired = try await SilenceBook.expire(id: number, store: store, by: author, now: now)
        }
        guard let silence = expired else { throw CommandFailure(message: "error: no silence \(number)", exitCode: 1) }
        printForTerminal(
            "silence \(silence.id): \(SilenceListCommand.scope(silence)) ended \(silence.endsAt.shownTime)")
    }
}
