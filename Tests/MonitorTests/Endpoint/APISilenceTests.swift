import Foundation
import HTTPEngine
import MonitorCore
import MonitorDaemon
import MonitorEvaluation
import MonitorStatus
import MonitorStore
import Testing

@Suite("HTTP API: silences, and who may write them")
struct APISilenceTests {
    typealias F = APIFixture

    static let body = #"{"domains": ["broken-a.example"], "for": "2h", "reason": "moving the CDN"}"#

    @Test("beyond loopback without basic_auth_file a write is refused with 403 and nothing is stored")
    func refusedWithoutCredentials() async throws {
        try await F.with(host: "0.0.0.0") { api in
            let post = try await api.request("POST", "/api/v1/silences", json: Self.body)
            #expect(post.status == 403)
            let error = try F.error(post)
            #expect(error.code == "forbidden")
            #expect(error.message.contains("endpoint.basic_auth_file"))
            #expect(try await api.request("DELETE", "/api/v1/silences/1").status == 403)
            #expect(try await api.store.reader.silences(at: F.now).isEmpty)
            // Reading stays open, as every other route without the file.
            #expect(try await api.get("/api/v1/silences").status == 200)
        }
    }

    @Test(
        "beyond loopback with basic_auth_file a write needs the password, and then the silence is in GET and the store")
    func acceptedWithCredentials() async throws {
        try await F.with(host: "0.0.0.0", basicAuth: F.users) { api in
            let credentials = (F.user, F.password)
            #expect(try await api.request("POST", "/api/v1/silences", json: Self.body).status == 401)
            let wrong = try await api.request("POST", "/api/v1/silences", json: Self.body, credentials: (F.user, "no"))
            #expect(wrong.status == 401)

            let post = try await api.request("POST", "/api/v1/silences", json: Self.body, credentials: credentials)
            #expect(post.status == 201, "\(String(decoding: post.body, as: UTF8.self))")
            let added = try F.object(post)
            let id = try #require(added["id"] as? String)
            #expect(post.headers.first("location") == "/api/v1/silences/\(id)")
            #expect(added["author"] as? String == F.user)
            #expect(added["state"] as? String == "active")
            #expect(added["ends_at"] as? String == RFC3339.string(F.now.addingTimeInterval(7_200)))

            let stored = try await api.store.reader.silences(at: F.now)
            #expect(stored.map(\.id) == [id])
            #expect(stored.first?.domains == ["broken-a.example"])
            #expect(stored.first?.reason == "moving the CDN")

            let list = try F.object(try await api.get("/api/v1/silences", credentials: credentials))
            let listed = try #require(list["silences"] as? [[String: Any]])
            #expect(listed.map { $0["id"] as? String } == [id])
            // The API lists what silence list --json prints: the same function builds both.
            let shared = try await SilenceBook.list(reader: api.store.reader, maintenance: [], now: F.now)
            #expect(
                try await api.get("/api/v1/silences", credentials: credentials).body
                    == Array(try MonitorJSON.encoder().encode(["silences": shared])))
            // The domain's status now says it is silenced.
            let status = try F.object(try await api.get("/api/v1/domains/broken-a.example", credentials: credentials))
            let domain = try #require((status["domains"] as? [[String: Any]])?.first)
            #expect((domain["silenced"] as? [String: Any])?["id"] as? String == id)

            let expire = try await api.request("DELETE", "/api/v1/silences/\(id)", credentials: credentials)
            #expect(expire.status == 200)
            #expect(try F.object(expire)["state"] as? String == "ended")
            #expect(try await api.store.reader.silences(at: F.now).isEmpty)
        }
    }

    @Test("on loopback without basic_auth_file writes are allowed, by api")
    func loopbackWrites() async throws {
        try await F.with { api in
            let post = try await api.request(
                "POST", "/api/v1/silences",
                json:
                    #"{"all": true, "code": "cdn.stale", "ends_at": "2027-01-16T00:00:00Z", "reason": "Apple is slow"}"#
            )
            #expect(post.status == 201)
            let added = try F.object(post)
            #expect(added["author"] as? String == "api")
            #expect(added["domains"] is NSNull)
            #expect(added["code"] as? String == "cdn.stale")
            let id = try #require(added["id"] as? String)
            #expect(try await api.request("DELETE", "/api/v1/silences/\(id)").status == 200)
            let missing = try await api.request("DELETE", "/api/v1/silences/999")
            #expect(missing.status == 404)
            #expect(try F.error(missing).message == "no silence 999")
        }
    }

    @Test(
        "a wrong silence is a 400 naming the field",
        arguments: [
            (#"{"for": "2h", "reason": "x"}"#, "domains"),
            (#"{"domains": ["other.example"], "for": "2h", "reason": "x"}"#, "domains"),
            (#"{"domains": ["ready.example"], "all": true, "for": "2h", "reason": "x"}"#, "all"),
            (#"{"domains": "ready.example", "for": "2h", "reason": "x"}"#, "domains"),
            (#"{"all": true, "for": "2h"}"#, "reason"),
            (#"{"all": true, "for": "2h", "reason": "  "}"#, "reason"),
            (#"{"all": true, "for": "soon", "reason": "x"}"#, "for"),
            (#"{"all": true, "reason": "x"}"#, "for"),
            (#"{"all": true, "ends_at": "2020-01-01T00:00:00Z", "reason": "x"}"#, "ends_at"),
            (#"{"all": true, "ends_at": "tomorrow", "reason": "x"}"#, "ends_at"),
            (#"{"all": true, "for": "2h", "reason": "x", "code": "no.such"}"#, "code"),
            (#"{"all": "yes", "for": "2h", "reason": "x"}"#, "all"),
            (#"{"all": true, "for": "2h", "reason": "x", "until": "later"}"#, "until"),
        ])
    func badSilence(body: String, field: String) async throws {
        try await F.with { api in
            let response = try await api.request("POST", "/api/v1/silences", json: body)
            #expect(response.status == 400)
            let error = try F.error(response)
            #expect(error.code == "invalid_body")
            #expect(error.message.hasPrefix("\(field): "), "\(error.message)")
            #expect(try await api.store.reader.silences(at: F.now).isEmpty)
        }
    }

    @Test("a body that is not JSON, or not sent as JSON, is refused")
    func notJSON() async throws {
        try await F.with { api in
            let form = try await api.request(
                "POST", "/api/v1/silences", json: "reason=x&all=true", contentType: "application/x-www-form-urlencoded")
            #expect(form.status == 415)
            #expect(try F.error(form).code == "unsupported_media_type")
            let array = try await api.request("POST", "/api/v1/silences", json: "[1]")
            #expect(array.status == 400)
            #expect(try F.error(array).code == "invalid_body")
        }
    }

    @Test("an id that is no silence's is a 400; a maintenance window is edited in the file")
    func badID() async throws {
        try await F.with { api in
            let word = try await api.request("DELETE", "/api/v1/silences/abc")
            #expect(word.status == 400)
            #expect(try F.error(word).message.hasPrefix("id: "))
            let window = try await api.request("DELETE", "/api/v1/silences/maintenance:nightly")
            #expect(window.status == 400)
            #expect(try F.error(window).message.contains("edit the file"))
        }
    }
}
