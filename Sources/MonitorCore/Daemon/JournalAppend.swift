import Foundation
import MonitorEvaluation

/// What one journal append writes: a check's records, changes of the monitor's own conditions, or both.
public struct JournalAppend: Sendable {
    /// A check and what the reducer made of it (`DomainReducer.records`).
    public var check: (report: DomainReport, outcome: LedgerOutcome)?
    /// The monitor's active conditions, when they changed (`nil`: unchanged); they replace the stored set.
    public var conditions: [MonitorConditions.Condition]?
    /// The deliveries of the conditions that fired or resolved (`ConditionLedger`).
    public var conditionDeliveries: [LedgerDelivery]
    /// When the condition deliveries were made (a check's own deliveries carry its check time).
    public var at: Date
    /// A cluster's check: kept only while its lease is still the domain's (`nil` on a daemon of its own).
    package var fence: Fence?

    public init(
        check: (report: DomainReport, outcome: LedgerOutcome)? = nil,
        conditions: [MonitorConditions.Condition]? = nil, conditionDeliveries: [LedgerDelivery] = [], at: Date
    ) {
        self.check = check
        self.conditions = conditions
        self.conditionDeliveries = conditionDeliveries
        self.at = at
    }

    /// Whether it queues anything for the delivery loop.
    public var hasDeliveries: Bool {
        !conditionDeliveries.isEmpty || !(check?.outcome.deliveries.isEmpty ?? true)
    }
}
