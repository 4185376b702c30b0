import Foundation

/// A failure Apple's CDN cached before the origin last changed: its `Apple-Failure-Reason` describes the origin as
/// it was (before a fix, usually), so it is Apple lagging (`cdn.missing`, over when the answer expires), not Apple's
/// diagnosis of the origin as it is (`origin.apple_failure`).
///
/// When Apple cached its answer: the check time less the answer's age, the larger of `Age` and the time since its
/// `Date` (RFC 9111 §4.2.3: a cache may pass on the `Date` of the answer it stored). When the origin changed: a
/// change an earlier check saw (the daemon's history), or the file's `Last-Modified`, believed only when it names
/// a second before the answer's own `Date` (or the check's start): a server that stamps every answer "modified now"
/// says nothing about when the file changed.
struct CachedFailure: Sendable, Hashable {
    enum Basis: String {
        /// An earlier check of this monitor saw the origin change.
        case history
        /// The origin's `Last-Modified`.
        case lastModified = "last_modified"
    }

    var cachedAt: Date
    var originChangedAt: Date
    var basis: Basis

    /// The failure Apple cached before the origin's last change, or `nil` when Apple's answer is newer than every
    /// change known (or cannot be dated).
    static func of(
        cdn: CDNFacts?, originSince: Date?, wellKnown: FetchObservation, checkStartedAt: Date, now: Date
    ) -> CachedFailure? {
        guard let cdn, let cachedAt = cachedAt(cdn, now: now) else { return nil }
        var changes: [(Date, Basis)] = []
        if let originSince { changes.append((originSince, .history)) }
        if let modified = lastModified(wellKnown, checkStartedAt: checkStartedAt) {
            changes.append((modified, .lastModified))
        }
        guard let (changedAt, basis) = changes.max(by: { $0.0 < $1.0 }), cachedAt < changedAt else { return nil }
        return CachedFailure(cachedAt: cachedAt, originChangedAt: changedAt, basis: basis)
    }

    /// When Apple's CDN stored the answer it gave; `nil` when it says neither its `Age` nor its `Date`.
    static func cachedAt(_ cdn: CDNFacts, now: Date) -> Date? {
        let date = cdn.headers["date"].flatMap(HTTPDate.parse)
        guard cdn.age != nil || date != nil else { return nil }
        // A `Date` ahead of this host's clock is skew, not a negative age; one more than a year back counts as a
        // year, as `Age` does (`CDNHeaders.maximumSeconds`).
        let sinceDate = date.map { min(max(0, now.timeIntervalSince($0)), Double(CDNHeaders.maximumSeconds)) } ?? 0
        return now.addingTimeInterval(-max(Double(cdn.age ?? 0), sinceDate))
    }

    /// The `.well-known` answer's `Last-Modified`, when it names a second before the one the answer was made in (its
    /// `Date`, else the check's start): a stamp of the answer's own second is a generated "now", not a change.
    static func lastModified(_ fetch: FetchObservation, checkStartedAt: Date) -> Date? {
        guard let response = fetch.response, let modified = response.header("Last-Modified").flatMap(HTTPDate.parse)
        else { return nil }
        let made = response.header("Date").flatMap(HTTPDate.parse) ?? checkStartedAt
        return modified < made.wholeSecond ? modified : nil
    }

    /// `cdn.missing`, saying that Apple's reason is about the origin as it was and when Apple's answer expires.
    func explain(_ missing: ReportFinding, expiresAt: Date?, now: Date) -> ReportFinding {
        var finding = missing
        let reason =
            missing.detail["apple_failure_reason"]?.stringValue.map { "Apple says \($0)" } ?? "Apple gave no reason"
        let change =
            switch basis {
            case .history: "before the origin's file changed (this monitor saw it change at "
            case .lastModified: "before the origin's file changed (its Last-Modified is "
            }
        let ago = DurationText.describe(now.timeIntervalSince(cachedAt))
        let expiry = CDNExpiry.phrase(expiresAt, now: now).map { "Apple's answer \($0)" } ?? "Apple's answer expires"
        finding.message =
            "Apple's CDN has no copy of the file: \(reason), an answer it cached at \(RFC3339.string(cachedAt)) "
            + "(\(ago) ago), \(change)\(RFC3339.string(originChangedAt))): it describes the origin as it was. "
            + "\(expiry), then Apple fetches the file again — wait for that (check --wait); only a failure that "
            + "comes back after it needs a fix"
        finding.detail["cached_at"] = .string(RFC3339.string(cachedAt))
        finding.detail["origin_changed_at"] = .string(RFC3339.string(originChangedAt))
        finding.detail["origin_changed_per"] = .string(basis.rawValue)
        return finding
    }
}

extension Date {
    /// The whole second this time falls in, as an HTTP date names it: dates have no fractions there.
    fileprivate var wholeSecond: Date {
        Date(timeIntervalSince1970: timeIntervalSince1970.rounded(.down))
    }
}
