import AASA
import Foundation
import MonitorCore
import MonitorEvaluation

/// Where `silence add` / `silence expire` and the API's silence routes write: the daemon's own database, or a
/// cluster's shared one (every node's checks read it, so a silence holds cluster-wide).
package protocol SilenceWriting: Sendable {
    func addSilence(
        domains: [String]?, code: FindingCode?, from start: Date, until end: Date, author: String, reason: String,
        at now: Date
    ) async throws -> Silence
    /// Ends silence `id` at `now`; `nil` when there is no such silence. One already over is returned unchanged.
    func expireSilence(id: Int64, by author: String, at now: Date) async throws -> Silence?
}

extension MonitorStore: SilenceWriting {}
