import AASA
import Foundation
import MonitorCore
import Synchronization

/// The monitor's own conditions (`monitor.*`): the book's entry for the monitor itself, shared by every check and
/// by housekeeping, and journaled with whichever append comes next.
///
/// A check folds its report in before its journal append and carries the changes in that same append: one
/// transaction, one route to the outbox. Changes whose append failed are put back and ride the next append, so
/// none is lost while the store cannot commit (`monitor.store` itself is one of them).
final class ConditionBook: Sendable {
    /// Changes of the conditions to journal: what fired or resolved, and the active set to store.
    struct Changes: Sendable {
        var transitions: [MonitorConditions.Transition]
        var active: [MonitorConditions.Condition]
    }

    private struct Book {
        var conditions: MonitorConditions
        /// Transitions not yet committed by any append, oldest first.
        var unjournaled: [MonitorConditions.Transition] = []
    }

    private let book: Mutex<Book>

    init(active: [MonitorConditions.Condition]) {
        book = Mutex(Book(conditions: MonitorConditions(active: active)))
    }

    /// The active conditions.
    var active: [FindingCode: MonitorConditions.Condition] {
        book.withLock { $0.conditions.active }
    }

    /// The sources whose domain alerts are held meanwhile.
    var heldSources: Set<FindingSource> {
        book.withLock { $0.conditions.heldSources }
    }

    /// Folds a finished check in; returns the changes to journal with it, if any.
    func record(_ report: DomainReport, domains: Int, now: Date) -> Changes? {
        take { $0.record(report, domains: domains, now: now) }
    }

    /// A fault of this process or host seen at `now`.
    func fault(_ fault: MonitorConditions.Fault, message: String, now: Date) -> Changes? {
        take { $0.fault(fault, message: message, now: now) }
    }

    /// The fault is over.
    func cleared(_ fault: MonitorConditions.Fault, now: Date) -> Changes? {
        take { $0.cleared(fault, now: now) }
    }

    /// Forgets domains no longer configured.
    func forget(keeping domains: Set<String>) {
        book.withLock { $0.conditions.forget(keeping: domains) }
    }

    /// The append that carried `changes` failed: its transitions ride the next one.
    func journalFailed(_ changes: Changes) {
        book.withLock { $0.unjournaled = changes.transitions + $0.unjournaled }
    }

    /// The unjournaled transitions and the active set, taken for an append of their own.
    func takeUnjournaled() -> Changes? {
        take { _ in [] }
    }

    private func take(_ change: (inout MonitorConditions) -> [MonitorConditions.Transition]) -> Changes? {
        book.withLock { book in
            let transitions = book.unjournaled + change(&book.conditions)
            book.unjournaled = []
            guard !transitions.isEmpty else { return nil }
            let active = book.conditions.active.values.sorted { $0.code < $1.code }
            return Changes(transitions: transitions, active: active)
        }
    }
}
