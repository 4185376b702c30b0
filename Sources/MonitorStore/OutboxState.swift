import GRDB

/// The delivery state of an outbox row; the raw values are what the `state` column holds.
///
/// `pending` (attempts 0) → attempted: `delivered` (final), `pending` again with a later `next_attempt_at`
/// (retrying), or `dead` (final, given up).
package enum OutboxState: String, Sendable, Hashable, CaseIterable, DatabaseValueConvertible {
    /// Waiting for its first attempt, or for its next one after a failure.
    case pending
    /// The receiver accepted it; final.
    case delivered
    /// Given up on after the last attempt failed; final.
    case dead
}
