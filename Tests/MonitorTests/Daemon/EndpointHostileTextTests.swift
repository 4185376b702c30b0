import EndToEndSlot
import Foundation
import HTTPEngine
import Synchronization
import TestSupport
import Testing

/// Issue 26 §4 minor items with the real daemon: `HEAD` answers like `GET` without a body on every route,
/// `/healthz` included, and bidirectional controls from origin data reach the HTML page escaped, not obeyed.
@Suite("endpoint: HEAD and hostile text", .timeLimit(.minutes(10)), .endToEndSlot)
struct EndpointHostileTextTests {
    static let domain = "shop.origin.test"
    /// An app ID whose U+202E would show the rest reversed (`ABCDE12345.com.live.app` read backwards).
    static let reversed = "ABCDE12345.com.\u{202E}ppa.evil"

    @Test("HEAD answers every route as GET does, without a body; U+202E from the origin is shown as \\u202e")
    func headAndBidi() async throws {
        let fixture = try DaemonFixture()
        try await fixture.withServers(domains: [Self.domain]) { origin, cdn, _, ca in
            fixture.origin.withLock {
                $0 = (200, #"{"applinks":{"details":[{"appIDs":["\#(Self.reversed)"],"components":[{"/":"/x/*"}]}]}}"#)
            }
            try fixture.writeConfiguration(domains: [Self.domain], origin: origin, cdn: cdn, caFile: ca)
            let daemon = try fixture.startDaemon()
            try await eventually("a first check", log: daemon) { try await DaemonTests.checks(fixture).count >= 1 }
            let line = try #require(
                daemon.standardError.split(separator: "\n").first { $0.contains("endpoint listening") })
            let address = try #require(line.split(separator: " ").first { $0.hasPrefix("address=") }?.dropFirst(8))
            try await withCurlEngine { engine in
                func request(_ method: String, _ path: String) async throws -> HTTPResponse {
                    try await engine.perform(
                        HTTPRequest(url: "http://\(address)\(path)", method: method, httpsOnly: false))
                }
                for path in ["/", "/domains/\(Self.domain)", "/metrics", "/healthz", "/status", "/style.css"] {
                    let get = try await request("GET", path)
                    let head = try await request("HEAD", path)
                    #expect(head.status == get.status, "HEAD \(path): \(head.status), GET \(get.status)")
                    #expect(head.status == 200, "HEAD \(path)")
                    #expect(head.body.isEmpty, "HEAD \(path)")
                    #expect(head.headers.first("content-type") == get.headers.first("content-type"), "HEAD \(path)")
                    #expect(Int(head.headers.first("content-length") ?? "") ?? 0 > 0, "HEAD \(path)")
                }
                #expect(try await request("HEAD", "/nothing").status == 404)

                let page = String(decoding: try await request("GET", "/domains/\(Self.domain)").body, as: UTF8.self)
                #expect(page.contains("ppa.evil"), "the finding about the app ID is on the page")
                #expect(!page.unicodeScalars.contains("\u{202E}"))
                #expect(page.contains("\\u202e"))
            }
            daemon.send(SIGTERM)
            #expect(try await daemon.waitForExit() == 0)
        }
    }
}
