import Foundation
import MonitorCore
import MonitorStore

/// What `/api/v1/` and the badges answer from: the daemon's store and what its configuration says now.
///
/// The routes call the same readers as the commands (`StatusReader`, `SilenceBook`, `SilenceOrder`), so the CLI and
/// the API give the same answers.
package struct APISources: Sendable {
    /// The state database: read for status, history and silences; written for silences.
    package var store: MonitorStore
    /// Where silences are written: `store`, or a cluster's shared database (the node's copy then shows a new silence
    /// within `ClusterMirror`'s period).
    package var silenceStore: any SilenceWriting
    /// The configured domains (A-labels), asked on every request, so a reload counts at once.
    package var configured: @Sendable () async -> [String]
    /// Whether one A-label is configured: a badge or a domain's answer asks about one name, without listing a fleet.
    package var isConfigured: @Sendable (String) async -> Bool
    /// The configuration's maintenance windows open at a time, shown as silences.
    package var maintenance: @Sendable (Date) async -> [Silence]
    /// The time now; replaceable in tests.
    package var now: @Sendable () -> Date

    package init(
        store: MonitorStore, silenceStore: (any SilenceWriting)? = nil,
        configured: @escaping @Sendable () async -> [String],
        isConfigured: (@Sendable (String) async -> Bool)? = nil,
        maintenance: @escaping @Sendable (Date) async -> [Silence] = { _ in [] },
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.store = store
        self.silenceStore = silenceStore ?? store
        self.configured = configured
        self.isConfigured = isConfigured ?? { name in await configured().contains(name) }
        self.maintenance = maintenance
        self.now = now
    }
}
