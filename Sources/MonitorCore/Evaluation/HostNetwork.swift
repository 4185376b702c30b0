import Foundation

/// Telling this host's network trouble apart from a domain's, by evidence rather than by counting domains: when a
/// check's origin request and its request to Apple's CDN host (a name that always resolves and answers) both fail
/// DNS or connect, the resolver or route of the monitor's own host is the likelier cause.
public enum HostNetwork {
    /// Whether Apple's CDN host failed DNS or connect in this check.
    public static func cdnFailed(_ cdn: CDNFacts?) -> Bool {
        guard let error = cdn?.error else { return false }
        return error == FetchFailure.Kind.dns.rawValue || error == FetchFailure.Kind.connect.rawValue
    }

    /// Whether a failed fetch failed DNS or connect.
    static func failedToReach(_ fetch: FetchObservation?) -> Bool {
        guard let kind = fetch?.failure?.kind else { return false }
        return kind == .dns || kind == .connect
    }
}
