import Dispatch
import MonitorCore
import MonitorEvaluation
import Synchronization

#if canImport(Glibc)
    import Glibc
#else
    import Darwin
#endif

/// Asks this host's resolver whether a name exists, after libcurl could not resolve it.
///
/// libcurl's threaded resolver says "Could not resolve host" both for a name that does not exist and for a resolver
/// that did not answer; only the second is evidence of this host's own network trouble (`monitor.network`). One
/// `getaddrinfo` after a failure tells them apart: `EAI_NONAME`/`EAI_NODATA` is the resolver's answer that the name
/// has no address, anything else (`EAI_AGAIN`, `EAI_FAIL`) is no answer.
enum NameLookup {
    #if canImport(Glibc)
        /// glibc's `EAI_NODATA` ("no address associated with hostname"), hidden from Swift behind `__USE_GNU`.
        private static let noData: Int32 = -5
        private static let stream = Int32(SOCK_STREAM.rawValue)
    #else
        private static let noData = EAI_NODATA
        private static let stream = SOCK_STREAM
    #endif

    /// Resumes a continuation once: by the lookup, or by the time limit, whichever comes first.
    private final class Once: Sendable {
        let continuation: Mutex<CheckedContinuation<Bool?, Never>?>
        init(_ continuation: CheckedContinuation<Bool?, Never>) { self.continuation = Mutex(continuation) }
        func resume(_ value: Bool?) { continuation.withLock { $0.take() }?.resume(returning: value) }
    }

    /// `true` when the resolver answers that `host` has no address, `false` when it resolves now, `nil` when the
    /// resolver gave no answer within `timeout` (a resolver outage must not hold the check longer than its own
    /// requests may take).
    static func notFound(_ host: String, within timeout: Duration) async -> Bool? {
        await withCheckedContinuation { continuation in
            let once = Once(continuation)
            // getaddrinfo blocks for as long as the resolver takes: never on the cooperative pool.
            DispatchQueue.global().async {
                var hints = addrinfo()
                hints.ai_socktype = Self.stream
                var result: UnsafeMutablePointer<addrinfo>?
                let status = getaddrinfo(host, "443", &hints, &result)
                if let result { freeaddrinfo(result) }
                switch status {
                case 0: once.resume(false)
                case EAI_NONAME, Self.noData: once.resume(true)
                default: once.resume(nil)
                }
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout.seconds) { once.resume(nil) }
        }
    }
}

extension FetchObservation {
    /// This observation with a DNS failure marked as a name that does not exist, when the resolver says so within
    /// `timeout`.
    func askingResolver(host: String, within timeout: Duration) async -> FetchObservation {
        guard var failure, failure.kind == .dns else { return self }
        failure.nameNotFound = await NameLookup.notFound(host, within: timeout)
        var copy = self
        copy.outcome = .failure(failure)
        return copy
    }
}
