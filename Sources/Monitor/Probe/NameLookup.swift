import Dispatch
import Glibc
import MonitorCore

/// Asks this host's resolver whether a name exists, after libcurl could not resolve it.
///
/// libcurl's threaded resolver says "Could not resolve host" both for a name that does not exist and for a resolver
/// that did not answer; only the second is evidence of this host's own network trouble (`monitor.network`). One
/// `getaddrinfo` after a failure tells them apart: `EAI_NONAME`/`EAI_NODATA` is the resolver's answer that the name
/// has no address, anything else (`EAI_AGAIN`, `EAI_FAIL`) is no answer.
enum NameLookup {
    /// glibc's `EAI_NODATA` ("no address associated with hostname"), hidden from Swift behind `__USE_GNU`.
    private static let noData: Int32 = -5

    /// `true` when the resolver answers that `host` has no address, `false` when it resolves now, `nil` when the
    /// resolver gave no answer.
    static func notFound(_ host: String) async -> Bool? {
        await withCheckedContinuation { continuation in
            // getaddrinfo blocks for as long as the resolver takes: never on the cooperative pool.
            DispatchQueue.global().async {
                var hints = addrinfo()
                hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
                var result: UnsafeMutablePointer<addrinfo>?
                let status = getaddrinfo(host, "443", &hints, &result)
                if let result { freeaddrinfo(result) }
                switch status {
                case 0: continuation.resume(returning: false)
                case EAI_NONAME, Self.noData: continuation.resume(returning: true)
                default: continuation.resume(returning: nil)
                }
            }
        }
    }
}

extension FetchObservation {
    /// This observation with a DNS failure marked as a name that does not exist, when the resolver says so.
    func askingResolver(host: String) async -> FetchObservation {
        guard var failure, failure.kind == .dns else { return self }
        failure.nameNotFound = await NameLookup.notFound(host)
        var copy = self
        copy.outcome = .failure(failure)
        return copy
    }
}
