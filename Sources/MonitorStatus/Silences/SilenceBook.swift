import Foundation
import MonitorCore
import MonitorStore

/// Listing and expiring silences, as `silence list` / `silence expire` and `GET` / `DELETE /api/v1/silences` do
/// it: one implementation, so the command and the API say the same.
package enum SilenceBook {
    /// The stored silences in force or to come at `now`, then the configuration's open maintenance windows.
    package static func list(reader: StoreReader?, maintenance: [Silence], now: Date) async throws -> [SilenceStatus] {
        let stored = try await reader?.silences(at: now) ?? []
        return (stored + maintenance).map { SilenceStatus($0, now: now) }
    }

    /// The row id in `text` (`silence list` shows it).
    ///
    /// - Throws: `SilenceOrderError` for `id`: a maintenance window (edit the configuration) or not a number.
    package static func id(_ text: String) throws(SilenceOrderError) -> Int64 {
        if let number = Int64(text), number > 0 { return number }
        if text.hasPrefix("maintenance:") {
            throw SilenceOrderError(
                field: "id", message: "\(text.prefix(200)) is a maintenance window of the configuration: edit the file")
        }
        throw SilenceOrderError(field: "id", message: "a silence id is a positive number, as silence list shows it")
    }

    /// Ends the silence `id` at `now`; `nil` when there is no such silence. One already over is returned unchanged.
    package static func expire(
        id: Int64, store: any SilenceWriting, by author: String, now: Date
    ) async throws -> Silence? {
        try await store.expireSilence(id: id, by: author, at: now)
    }
}
