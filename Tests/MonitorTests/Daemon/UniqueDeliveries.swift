import TestSupport

extension FixtureServer {
    /// The requests to `path`, each delivery once: delivery is at least once, and a receiver that answered after the
    /// webhook's timeout (a loaded machine) gets the same delivery again with the same `webhook-id`, which receivers
    /// drop, as these tests do.
    func uniqueDeliveries(to path: String) -> [RecordedRequest] {
        var seen: Set<String> = []
        return requests.filter { request in
            guard request.uri == path else { return false }
            guard let id = request.headerValues("webhook-id").first else { return true }
            return seen.insert(id).inserted
        }
    }
}
