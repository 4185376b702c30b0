import Foundation
import HTTPEngine
import MonitorCore
import MonitorDaemon
import MonitorEndpoint
import MonitorEvaluation
import MonitorStatus
import MonitorStore
import Testing

@Suite("HTTP API: domains, filters, pages, status and history")
struct APITests {
    typealias F = APIFixture

    /// The names of a `GET /api/v1/domains` answer, in order.
    private func names(_ response: HTTPResponse) throws -> [String] {
        let domains = try #require(try F.object(response)["domains"] as? [[String: Any]])
        return domains.compactMap { $0["domain"] as? String }
    }

    @Test("verdict=origin_broken returns exactly the broken domains, with the total")
    func brokenOnly() async throws {
        try await F.with { api in
            let response = try await api.get("/api/v1/domains?verdict=origin_broken")
            #expect(response.status == 200)
            #expect(response.headers.first("content-type") == "application/json")
            #expect(try names(response) == ["broken-a.example", "broken-b.example"])
            #expect(try F.object(response)["total"] as? Int == 2)
            let everything = try await api.get("/api/v1/domains")
            #expect(try names(everything).count == F.configured.count)
            // Problems first: the broken ones lead, the ready one comes last.
            #expect(try names(everything).prefix(2) == ["broken-a.example", "broken-b.example"])
            #expect(try names(everything).last == "ready.example")
            let two = try await api.get("/api/v1/domains?verdict=cdn_stale,not_checked")
            #expect(try names(two) == ["stale.example", "fresh.example"])
        }
    }

    @Test("q= keeps the names containing it, in any case")
    func nameFilter() async throws {
        try await F.with { api in
            #expect(try names(try await api.get("/api/v1/domains?q=BROKEN-B")) == ["broken-b.example"])
            let none = try await api.get("/api/v1/domains?q=nothing-like-it")
            #expect(try names(none).isEmpty)
            #expect(try F.object(none)["total"] as? Int == 0)
            #expect(try F.object(none)["next_cursor"] is NSNull)
        }
    }

    @Test("a cursor walks every domain once, problems first; offset pages the same order")
    func pagination() async throws {
        try await F.with { api in
            var seen: [String] = []
            var path = "/api/v1/domains?limit=2"
            while true {
                let page = try await api.get(path)
                #expect(page.status == 200)
                let object = try F.object(page)
                #expect(object["total"] as? Int == F.configured.count)
                #expect(object["limit"] as? Int == 2)
                seen += try names(page)
                guard let cursor = object["next_cursor"] as? String else { break }
                let encoded = cursor.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? cursor
                path = "/api/v1/domains?limit=2&cursor=\(encoded)"
            }
            let all = try names(try await api.get("/api/v1/domains"))
            #expect(seen == all)
            #expect(Set(seen) == Set(F.configured))
            let second = try await api.get("/api/v1/domains?limit=2&offset=2")
            #expect(try names(second) == Array(all[2..<4]))
            #expect(try F.object(second)["offset"] as? Int == 2)
        }
    }

    @Test(
        "a bad filter or page is a 400 naming the parameter",
        arguments: [
            ("verdict=nope", "verdict"), ("limit=0", "limit"), ("limit=1001", "limit"), ("limit=ten", "limit"),
            ("offset=-1", "offset"), ("cursor=garbage", "cursor"), ("cursor=ready:a.example&offset=3", "cursor"),
            ("q=a&q=b", "q"),
        ])
    func badParameter(query: String, parameter: String) async throws {
        try await F.with { api in
            let response = try await api.get("/api/v1/domains?\(query)")
            #expect(response.status == 400)
            let error = try F.error(response)
            #expect(error.code == "invalid_parameter")
            #expect(error.message.hasPrefix("\(parameter): "), "\(error.message)")
        }
    }

    @Test("domains/{domain} is what status DOMAIN --json prints, from the same reader")
    func domainStatus() async throws {
        try await F.with { api in
            let response = try await api.get("/api/v1/domains/stale.example")
            #expect(response.status == 200)
            let expected = try await StatusReader(store: api.store.reader).snapshot(
                now: F.now, domains: ["stale.example"])
            #expect(response.body == Array(try MonitorJSON.encoder().encode(expected)))
            let domains = try #require(try F.object(response)["domains"] as? [[String: Any]])
            #expect(domains.first?["verdict"] as? String == "cdn_stale")
            // Any spelling of a configured name finds it; a configured name not checked yet has no domain entry.
            #expect(try await api.get("/api/v1/domains/STALE.Example.").status == 200)
            let fresh = try await api.get("/api/v1/domains/fresh.example")
            #expect(fresh.status == 200)
            #expect((try F.object(fresh)["domains"] as? [Any])?.isEmpty == true)
        }
    }

    @Test("domains/{domain}/history is what history DOMAIN --json prints")
    func history() async throws {
        try await F.with { api in
            let response = try await api.get("/api/v1/domains/broken-a.example/history?limit=5")
            #expect(response.status == 200)
            let expected = try await StatusReader(store: api.store.reader).history(
                domain: "broken-a.example", limit: 5)
            #expect(response.body == Array(try MonitorJSON.encoder().encode(expected)))
            #expect(try F.object(response)["domain"] as? String == "broken-a.example")
            #expect(try await api.get("/api/v1/domains/broken-a.example/history?limit=0").status == 400)
        }
    }

    @Test(
        "an unknown domain or path is a JSON 404",
        arguments: [
            "/api/v1/domains/other.example", "/api/v1/domains/other.example/history", "/api/v1/nothing",
            "/api/v1/domains/not%20a%20name",
        ])
    func notFound(path: String) async throws {
        try await F.with { api in
            let response = try await api.get(path)
            #expect(response.status == 404)
            #expect(try F.error(response).code == "not_found")
        }
    }

    @Test("a method a path does not take is a JSON 405 that says which it takes")
    func methodNotAllowed() async throws {
        try await F.with { api in
            let put = try await api.request("PUT", "/api/v1/silences", json: "{}")
            #expect(put.status == 405)
            #expect(try F.error(put).code == "method_not_allowed")
            #expect(put.headers.first("allow") == "GET, POST, HEAD")
            let delete = try await api.request("DELETE", "/api/v1/domains/ready.example")
            #expect(delete.status == 405)
            #expect(delete.headers.first("allow") == "GET, HEAD")
        }
    }

    @Test("without a store the API answers a JSON 500 and the rest of the endpoint works")
    func noStore() async throws {
        let sources = EndpointSources(metrics: { MetricsSnapshot(domains: []) }, health: { .healthy }, status: { [] })
        try await withCurlEngine { engine in
            try await withMonitorEndpoint(listen: ListenAddress(host: "127.0.0.1", port: 0), sources: sources) {
                bound in
                let response = try await engine.perform(
                    HTTPRequest(
                        url: "http://127.0.0.1:\(bound.port)/api/v1/domains", httpsOnly: false,
                        httpVersion: .http1_1Only))
                #expect(response.status == 500)
                #expect(try F.error(response).code == "unavailable")
            }
        }
    }
}
