import Foundation

/// A node's right to check one domain now: held while `epoch` is the domain's and the node is its owner.
package struct DomainLease: Sendable, Hashable {
    package var domain: String
    /// Raised by every claim: a result is written only under the epoch it was claimed with (the fence).
    package var epoch: Int64
    /// When the domain came due, by the database's clock (for lateness figures).
    package var due: Date
    /// The domain's book entry as the last committed check left it (`nil` before the first).
    package var entry: Data?

    package init(domain: String, epoch: Int64, due: Date, entry: Data?) {
        self.domain = domain
        self.epoch = epoch
        self.due = due
        self.entry = entry
    }
}

/// What one check commits under its lease.
package struct LeasedCommit: Sendable {
    /// One webhook post of a transition; `deliveryID` is its webhook-id on every attempt by any node.
    package struct Delivery: Sendable, Hashable {
        package var webhook: String
        package var deliveryID: String
        package var body: Data

        package init(webhook: String, deliveryID: String, body: Data) {
            self.webhook = webhook
            self.deliveryID = deliveryID
            self.body = body
        }
    }

    package var lease: DomainLease
    /// The book entry after this check.
    package var entry: Data
    /// Seconds from the commit (database time) to the next check of the domain.
    package var nextIn: Double
    /// The check's transitions' posts, in order; empty when nothing changed.
    package var deliveries: [Delivery]

    package init(lease: DomainLease, entry: Data, nextIn: Double, deliveries: [Delivery]) {
        self.lease = lease
        self.entry = entry
        self.nextIn = nextIn
        self.deliveries = deliveries
    }
}

/// What became of a leased commit.
package enum LeasedCommitResult: Sendable, Equatable {
    /// Written; the domain's state version after it (it keys the outbox rows written with it).
    case committed(stateVersion: Int64)
    /// Not written: the lease was taken by another node (this one was paused, partitioned or slow past it).
    /// Nothing of the check may be alerted.
    case fenced
}
