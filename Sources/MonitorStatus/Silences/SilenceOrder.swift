import AASA
import Foundation
import MonitorCore
import MonitorEvaluation
import MonitorStore

/// A silence to add, checked: what `silence add` and `POST /api/v1/silences` both take, so the command and the API
/// accept and refuse the same things with the same words.
///
/// ```swift
/// let order = try SilenceOrder(
///     domains: ["example.com"], all: false, code: nil, duration: "2h", endsAt: nil,
///     reason: "moving the CDN", author: "alice", now: now)
/// let silence = try await order.add(to: store, at: now)
/// ```
package struct SilenceOrder: Sendable, Hashable {
    /// The A-labels to silence; `nil` for every domain.
    package var domains: [String]?
    /// Only alerts of this finding code.
    package var code: FindingCode?
    package var startsAt: Date
    package var endsAt: Date
    package var author: String
    package var reason: String

    /// Checks the parts of a silence as the user gave them.
    ///
    /// - Parameters:
    ///   - domains: The names to silence, in any form `DomainName.normalize` reads; empty with `all`.
    ///   - all: Silence every domain.
    ///   - code: Only this finding code (as `explain --list` names them).
    ///   - duration: How long from `now`, like `30m`; exactly one of `duration` and `endsAt`.
    ///   - endsAt: When it ends; after `now`.
    ///   - configured: The configured domains, when the names must be among them.
    /// - Throws: `SilenceOrderError` naming the field that is wrong.
    package init(
        domains: [String], all: Bool, code: String?, duration: String?, endsAt: Date?, reason: String,
        author: String, now: Date, configured: Set<String>? = nil
    ) throws(SilenceOrderError) {
        guard all != !domains.isEmpty else {
            throw SilenceOrderError(
                field: all ? "all" : "domains",
                message: all ? "give either domains or all, not both" : "name the domains to silence, or all")
        }
        if !all {
            var names: [String] = []
            for raw in domains {
                do { names.append(try DomainName.normalize(raw)) } catch {
                    throw SilenceOrderError(field: "domains", message: error.description)
                }
            }
            if let configured {
                let unknown = names.filter { !configured.contains($0) }
                if !unknown.isEmpty {
                    throw SilenceOrderError(
                        field: "domains",
                        message: "\(unknown.joined(separator: ", ")) \(unknown.count == 1 ? "is" : "are") not "
                            + "configured")
                }
            }
            self.domains = names
        } else {
            self.domains = nil
        }
        if let code {
            // An `app.*` code is never an alert's: a silence of one would mute nothing.
            guard let registered = FindingCode(id: code), registered.family != .app else {
                throw SilenceOrderError(field: "code", message: Self.unknownCode(code))
            }
            self.code = registered
        } else {
            self.code = nil
        }
        switch (duration, endsAt) {
        case (let duration?, nil):
            switch SettingValue.duration(duration) {
            case .success(let length): self.endsAt = now.addingTimeInterval(length.seconds)
            case .failure(let error): throw SilenceOrderError(field: "for", message: "\(error)")
            }
        case (nil, let end?):
            guard end > now else {
                throw SilenceOrderError(field: "ends_at", message: "\(RFC3339.string(end)) is not in the future")
            }
            // The bound of `for` (100 years): `9999-12-31T23:59:59Z` is no silence anyone means to end.
            guard end.timeIntervalSince(now) <= SettingValue.longestDuration.seconds else {
                throw SilenceOrderError(
                    field: "ends_at",
                    message: "\(RFC3339.string(end)) is more than 100 years away; silence for what you mean to end")
            }
            self.endsAt = end
        default:
            throw SilenceOrderError(field: "for", message: "say how long (for) or until when (ends_at), one of them")
        }
        let reason = reason.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !reason.isEmpty else { throw SilenceOrderError(field: "reason", message: "the reason must say why") }
        let author = author.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !author.isEmpty else { throw SilenceOrderError(field: "author", message: "the author is empty") }
        self.startsAt = now
        self.reason = reason
        self.author = author
    }

    /// `no finding code 'cdn.stal'; did you mean cdn.stale?`, measured as `explain` measures. A code is a few
    /// dozen characters: a longer text is cut when shown and gets no suggestion (no edit distance over a whole body).
    static func unknownCode(_ code: String) -> String {
        let shown = code.count > 80 ? code.prefix(80) + "…" : code[...]
        let suggestion = code.count > 80 ? "" : "; did you mean \(FindingCode.nearest(to: code).id)?"
        return "no finding code '\(shown)'\(suggestion) (aasa-monitor explain --list lists them)"
    }

    /// Stores the silence; the running daemon counts it from each domain's next check.
    package func add(to store: any SilenceWriting, at now: Date) async throws -> Silence {
        try await store.addSilence(
            domains: domains, code: code, from: startsAt, until: endsAt, author: author, reason: reason, at: now)
    }
}

/// Why a silence cannot be added: the field (as the API names it; the command's option has the same name) and
/// what is wrong with it.
package struct SilenceOrderError: Error, Sendable, Hashable, CustomStringConvertible {
    package var field: String
    package var message: String

    package init(field: String, message: String) {
        self.field = field
        self.message = message
    }

    package var description: String { "\(field): \(message)" }
}
