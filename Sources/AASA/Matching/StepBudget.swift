/// The work one decision may do, in comparison steps, so a hostile pattern or URL gives a clear
/// "pattern too large to decide safely" instead of minutes of CPU (issue 12 item 9).
///
/// Steps are counted, never timed, so a decision is the same on every machine and tests can prove linearity.
/// Every matcher subtracts what it compared and stops, answering "no match", once the budget is spent; the caller
/// then reports the rule it was running as undecided.
struct StepBudget {
    /// Steps left; negative once spent.
    var remaining: Int
    let limit: Int

    init(limit: Int) {
        self.limit = limit
        remaining = limit
    }

    var isSpent: Bool { remaining < 0 }
    var used: Int { limit - remaining }

    /// Takes `steps`; true while the budget still holds.
    @inline(__always)
    mutating func spend(_ steps: Int) -> Bool {
        remaining &-= steps
        return remaining >= 0
    }
}
