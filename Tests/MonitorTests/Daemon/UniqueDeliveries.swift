import TestSupport

extension FixtureServer {
    /// The requests to `path`, each delivery once: delivery is at least once, and a receiver that answered after the
    /// webhook's timeout (a loaded machine) gets the same delivery again with the same `webhook-id`, which receivers
    /// drop, as these tests do. Chat formats send no `webhook-id`: each of their requests is kept, a resend too, so
    /// count those with `distinctBodies(to:)` and `DaemonFixture.queuedDeliveries(webhook:)`.
    func uniqueDeliveries(to path: String) -> [RecordedRequest] {
        var seen: Set<String> = []
        return requests.filter { request in
            guard request.uri == path else { return false }
            guard let id = request.headerValues("webhook-id").first else { return true }
            return seen.insert(id).inserted
        }
    }

    /// The distinct bodies posted to `path`, in order of first arrival. Chat formats carry no `webhook-id`, but a
    /// resend renders the same stored event of the same outbox row (`OutboxDeliverer`), so it repeats a body byte
    /// for byte and collapses here. Two messages can be alike too (Slack's carry no time: the same digest in two
    /// checks is the same bytes), so a test that promises one message also counts the outbox's rows.
    func distinctBodies(to path: String) -> [String] {
        var seen: Set<[UInt8]> = []
        return requests.filter { $0.uri == path && seen.insert($0.body).inserted }.map {
            String(decoding: $0.body, as: UTF8.self)
        }
    }
}

extension DaemonFixture {
    /// How many messages the daemon queued for `webhook`: its outbox rows, one per delivery however often it is
    /// attempted (a retry or a resend after a restart updates its row). Read with the daemon stopped or running.
    func queuedDeliveries(webhook: String) throws -> Int {
        try WebhookFailureTests.outbox(self).filter { $0.webhook == webhook }.count
    }
}
