import Foundation
import MonitorEvaluation

/// How a daemon shares its fleet with other daemons on one database (`store: postgres:`).
///
/// No daemon keeps a schedule of its own: each domain's next due time, owner and lease are in the domain's row,
/// judged by the database's clock. When a slot is free the core asks for due domains (`Action.claim`), checks those
/// it was granted with the entry the database holds, and commits each result under its lease: a result whose lease
/// another daemon has claimed since is dropped whole (`Event.fenced`), so a daemon that was paused or cut off past
/// its lease writes nothing and alerts nothing.
package struct ClusterMode: Sendable, Hashable {
    /// How long a claimed domain stays this daemon's without a commit.
    package var leaseDuration: TimeInterval

    package init(leaseDuration: TimeInterval) {
        self.leaseDuration = leaseDuration
    }

    /// A lease outlasting the slowest check `configuration` allows (four requests' timeouts, as `/healthz` counts)
    /// and 10 s to commit it, and no longer: a daemon killed mid-check holds its domains this long (50 s with the
    /// default 10 s timeout, well inside the promised failover of an interval plus 30 s).
    package static func leaseDuration(for configuration: MonitorConfiguration) -> TimeInterval {
        configuration.http.timeout.seconds * 4 + 10
    }

    /// The window new domains' first checks are spread over: `DaemonCore.startupWindow`, as on one daemon.
    package static func startupSpread(for configuration: MonitorConfiguration) -> TimeInterval {
        let shortest = configuration.domains.map { configuration.interval(for: $0).seconds }.min() ?? 0
        return DaemonCore.startupWindow(shortestInterval: shortest, domains: configuration.domains.count)
    }
}

/// The right to check one domain now, as the database granted it.
package struct Lease: Sendable, Hashable {
    package var domain: String
    /// Raised by every claim of the domain: a result commits only under the epoch it was claimed with.
    package var epoch: Int64

    package init(domain: String, epoch: Int64) {
        self.domain = domain
        self.epoch = epoch
    }
}

/// A claimed domain: its lease, and its entry as the last committed check (by any daemon) left it.
package struct Grant: Sendable {
    package var lease: Lease
    package var entry: BookEntry?

    package init(lease: Lease, entry: BookEntry?) {
        self.lease = lease
        self.entry = entry
    }
}

/// What a check made under a lease commits besides its records: the fence and the domain's next due time.
package struct Fence: Sendable, Hashable {
    package var lease: Lease
    /// Seconds from the commit to the domain's next check (added to the database's clock).
    package var nextCheckIn: TimeInterval

    package init(lease: Lease, nextCheckIn: TimeInterval) {
        self.lease = lease
        self.nextCheckIn = nextCheckIn
    }
}
