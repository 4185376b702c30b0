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
