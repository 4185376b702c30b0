import Foundation
import HTTPEngine
import MonitorCore
import MonitorDaemon
import MonitorStore
import Testing

/// Issue 32 §5: the audit trail names who wrote, not who the body says wrote.
@Suite("API silence author")
struct APISilenceAuthorTests {
    typealias F = APIFixture

    @Test("an authenticated write records its user; a claimed author is kept beside it, never instead")
    func authenticatedAuthor() async throws {
        try await F.with(host: "0.0.0.0", basicAuth: F.users) { api in
            let claiming = #"{"all": true, "for": "2h", "reason": "x", "author": "alice (security lead)"}"#
            let post = try await api.request(
                "POST", "/api/v1/silences", json: claiming, credentials: (F.user, F.password))
            #expect(post.status == 201, "\(String(decoding: post.body, as: UTF8.self))")
            #expect(try F.object(post)["author"] as? String == "\(F.user) (for alice (security lead))")
            let own = #"{"all": true, "for": "2h", "reason": "y", "author": "\#(F.user)"}"#
            let second = try await api.request("POST", "/api/v1/silences", json: own, credentials: (F.user, F.password))
            #expect(try F.object(second)["author"] as? String == F.user)
            let stored = try await api.store.reader.silences(at: F.now).map(\.author).sorted()
            #expect(stored == [F.user, "\(F.user) (for alice (security lead))"])
        }
    }

    @Test("without authentication (loopback, no basic_auth_file) nobody is known: the claimed author stands")
    func unauthenticatedAuthor() async throws {
        try await F.with { api in
            let post = try await api.request(
                "POST", "/api/v1/silences", json: #"{"all": true, "for": "2h", "reason": "x", "author": "alice"}"#)
            #expect(try F.object(post)["author"] as? String == "alice")
        }
    }
}
