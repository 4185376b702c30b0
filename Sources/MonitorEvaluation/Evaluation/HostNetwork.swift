import Foundation

/// Telling this host's network trouble apart from a domain's, by evidence rather than by counting domains: when a
/// check's origin request and its request to Apple's CDN host (a name that always resolves and answers) both fail
/// the same way (both DNS, or both connect), the resolver or route of the monitor's own host is the likelier cause.
/// A name the resolver says does not exist (NXDOMAIN) is the domain's own problem and never such evidence: a dead
/// domain during a blip of the CDN host's DNS is not an outage of this host.
public enum HostNetwork {
    /// Whether Apple's CDN host failed DNS or connect in this check.
    public static func cdnFailed(_ cdn: CDNFacts?) -> Bool {
        guard let error = cdn?.error else { return false }
        return error == FetchFailure.Kind.dns.rawValue || error == FetchFailure.Kind.connect.rawValue
    }

    /// Whether a failed fetch failed DNS or connect, a name that does not exist excepted.
    static func failedToReach(_ fetch: FetchObservation?) -> Bool {
        guard let failure = fetch?.failure, failure.nameNotFound != true else { return false }
        return failure.kind == .dns || failure.kind == .connect
    }

    /// Whether one check is evidence of this host's trouble on its own: the origin and Apple's CDN host both failed
    /// to be reached, the same way.
    static func failedAlike(_ origin: FetchObservation?, _ cdn: FetchObservation?) -> Bool {
        failedToReach(origin) && failedToReach(cdn) && origin?.failure?.kind == cdn?.failure?.kind
    }
}
