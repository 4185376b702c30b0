import ArgumentParser
import Foundation
import MonitorCore
import MonitorDaemon
import MonitorEvaluation
import MonitorStore

/// `aasa-monitor outbox …`: see the webhook deliveries not yet delivered, send dead letters again, or drop one.
///
/// The outbox is a table of the daemon's database, so these commands work with the daemon running or stopped; the
/// running daemon's delivery loop reads it at least every 2 s and sends a retried delivery then. The work is in
/// `MonitorStore`'s outbox administration, which an HTTP API can call alike.
struct OutboxCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "outbox",
        abstract: "List the webhook deliveries not yet delivered; send dead letters again or drop them.",
        subcommands: [OutboxListCommand.self, OutboxRetryCommand.self, OutboxDropCommand.self]
    )

    /// A delivery id as `outbox list` prints it: `7` or `#7`.
    static func id(_ text: String) throws -> Int64 {
        guard let number = Int64(text.hasPrefix("#") ? String(text.dropFirst()) : text), number > 0 else {
            throw CommandFailure.usage("a delivery id is a number, as outbox list shows it; found '\(text)'")
        }
        return number
    }

    /// `#7  dead  team-chat  alert.firing shop.example.com origin.status`, escaped for a terminal.
    static func line(_ entry: OutboxEntry) -> String {
        TerminalText.safe("#\(entry.id)  \(entry.standing.rawValue)  \(entry.webhook)  \(entry.subject)")
    }

    /// The rest of a listed row: attempts, the next attempt, the last answer.
    static func details(_ entry: OutboxEntry) -> String {
        var parts = ["\(entry.attempts) attempt" + (entry.attempts == 1 ? "" : "s")]
        if let next = entry.nextAttemptAt { parts.append("next \(next.shownTime)") }
        if let finished = entry.finishedAt, entry.standing == .dead {
            parts.append("gave up \(finished.shownTime)")
        }
        if let status = entry.lastStatus { parts.append("last answer HTTP \(status)") }
        if let error = entry.lastError { parts.append("last error: \(error)") }
        return TerminalText.safe(parts.joined(separator: "; "))
    }
}

/// `aasa-monitor outbox list [--dead] [--webhook NAME] [--limit N] [--json]`.
struct OutboxListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the deliveries not yet delivered (pending, retrying, dead), oldest first.",
        discussion: """
            Shows each delivery's id, webhook, event (type, domain, code), state, attempts, next attempt and last \
            error; never a webhook's URL or secret. Exit codes: 0 listed (none is not an error); 1 no state yet or \
            unreadable state; 2 usage or configuration error.
            """
    )

    @OptionGroup var configuration: ConfigurationOptions
    @OptionGroup var state: StateOptions

    @Flag(help: "Only dead letters (deliveries given up on).")
    var dead = false

    @Option(
        help: "Only this webhook's deliveries (its name in the configuration).",
        completion: CompletionCandidates.webhooks)
    var webhook: String?

    @Option(help: "The most deliveries listed (default 100); the total is said.")
    var limit = 100

    @Flag(help: "Print one JSON document.")
    var json = false

    func validate() throws {
        guard limit >= 1 else { throw ValidationError("--limit must be at least 1") }
    }

    func run() async throws {
        let located = try state.locate(configuration: configuration, environment: ProcessInfo.processInfo.environment)
        let filter = OutboxFilter(deadOnly: dead, webhook: webhook, limit: limit)
        let reader = try StateAccess.reader(located, json: json) {
            try JSONOutput.print(OutboxListing(deliveries: [], total: 0))
        }
        let listing: OutboxListing
        do { listing = try await reader.outbox(filter) } catch {
            throw CommandFailure(message: "error: cannot read the outbox: \(error)", exitCode: 1)
        }
        if json {
            try JSONOutput.print(listing)
            return
        }
        if listing.deliveries.isEmpty { printForTerminal(dead ? "no dead letters" : "no deliveries waiting") }
        for entry in listing.deliveries {
            printForTerminal(OutboxCommand.line(entry))
            printForTerminal("    " + OutboxCommand.details(entry))
        }
        if listing.total > listing.deliveries.count {
            printForTerminal("\(listing.deliveries.count) of \(listing.total) shown (--limit)")
        }
    }
}

/// `aasa-monitor outbox retry ID… | --dead [--webhook NAME]`.
struct OutboxRetryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "retry",
        abstract: "Send deliveries again: dead letters back to pending, due now, with the same event id.",
        discussion: """
            A dead letter starts over: its attempts go back to 0 and its give-up age counts from its next attempt \
            (keeping them would give it up again at its first failure). A delivery still pending is made due now, \
            its attempts kept. The event and delivery ids stay, so a receiver that got it before drops the \
            duplicate. A running daemon sends it within about 2 s; a stopped one when it starts. Exit codes: 0 \
            made due (no dead letter to retry is not an error); 1 no such delivery, one already delivered, no \
            database, or it cannot be written; 2 usage or configuration error.
            """
    )

    @OptionGroup var configuration: ConfigurationOptions
    @OptionGroup var state: StateOptions

    @Argument(help: "Delivery ids, as outbox list shows them.")
    var ids: [String] = []

    @Flag(help: "Every dead letter.")
    var dead = false

    @Option(help: "With --dead: only this webhook's dead letters.", completion: CompletionCandidates.webhooks)
    var webhook: String?

    func validate() throws {
        if dead == !ids.isEmpty { throw ValidationError("name the deliveries to retry, or --dead") }
        if webhook != nil && !dead { throw ValidationError("--webhook goes with --dead") }
    }

    func run() async throws {
        let numbers = try ids.map(OutboxCommand.id)
        let located = try state.locate(configuration: configuration, environment: ProcessInfo.processInfo.environment)
        let store = try await StateAccess.store(located)
        defer { try? store.close() }
        let now = Date()
        if dead {
            let retried = try await store.retryDeadDeliveries(webhook: webhook, at: now)
            if retried.isEmpty { printForTerminal("no dead letters" + (webhook.map { " of \($0)" } ?? "")) }
            for entry in retried { printForTerminal("retry \(OutboxCommand.line(entry)): due now, attempts reset") }
            return
        }
        var refused = false
        for number in numbers {
            do {
                let retried = try await store.retryDelivery(id: number, at: now)
                let note = retried.revived ? "attempts reset" : "attempts kept"
                printForTerminal("retry \(OutboxCommand.line(retried.entry)): due now, \(note)")
            } catch let refusal as OutboxRefusal {
                printToStandardError("error: \(refusal.description)")
                refused = true
            }
        }
        if refused { throw CommandFailure.negative }
    }
}

/// `aasa-monitor outbox drop ID…`.
struct OutboxDropCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "drop",
        abstract: "Remove deliveries not yet delivered (pending or dead): they are never sent.",
        discussion: """
            Says what each was. Exit codes: 0 dropped; 1 no such delivery, one already delivered, no database, or \
            it cannot be written; 2 usage or configuration error.
            """
    )

    @OptionGroup var configuration: ConfigurationOptions
    @OptionGroup var state: StateOptions

    @Argument(help: "Delivery ids, as outbox list shows them.")
    var ids: [String]

    func run() async throws {
        let numbers = try ids.map(OutboxCommand.id)
        let located = try state.locate(configuration: configuration, environment: ProcessInfo.processInfo.environment)
        let store = try await StateAccess.store(located)
        defer { try? store.close() }
        var refused = false
        for number in numbers {
            do {
                let entry = try await store.dropDelivery(id: number, at: Date())
                printForTerminal("dropped \(OutboxCommand.line(entry)) (\(OutboxCommand.details(entry)))")
            } catch let refusal as OutboxRefusal {
                printToStandardError("error: \(refusal.description)")
                refused = true
            }
        }
        if refused { throw CommandFailure.negative }
    }
}
