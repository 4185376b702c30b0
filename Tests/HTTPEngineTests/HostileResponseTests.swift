import EndToEndSlot
import HTTPEngine
import TestSupport
import Testing

/// Servers that answer badly on purpose: the engine must never crash or hang, and every failure must be classified
/// and carry libcurl's code and text.
@Suite("Hostile responses", .endToEndSlot)
struct HostileResponseTests {
    /// Runs `body` against an HTTP/1.1 server answering `/` with `bytes` verbatim.
    private func withRawServer<Result>(
        _ bytes: [UInt8], _ body: (FixtureServer, HTTPRequest) async throws -> Result
    ) async throws -> Result {
        try await withFixtureServer(
            certificate: .valid(for: "origin.test"), protocols: .http1Only, routes: [FixtureRoute("/", .raw(bytes))]
        ) { server in
            try await body(server, try fixtureRequest("https://origin.test/", server: server))
        }
    }

    @Test("invalid UTF-8, an HTTP/ name mid-block, a folded line and 2,000 headers are all survived")
    func oddHeaderLines() async throws {
        var bytes = Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nHTTP/evil: mid-block\r\nX-Bad: ".utf8)
        bytes += [0xFF, 0xFE]
        bytes += Array("\r\nX-Folded: a\r\n  b\r\n".utf8)
        for index in 0..<2_000 { bytes += Array("X-N\(index): \(index)\r\n".utf8) }
        bytes += Array("\r\nok".utf8)
        try await withRawServer(bytes) { _, request in
            try await withCurlEngine { engine in
                let response = try await engine.perform(request)
                #expect(response.status == 200)
                #expect(response.body == Array("ok".utf8))
                #expect(response.headers.first("content-length") == "2", "kept despite the HTTP/ line after it")
                #expect(response.headers.first("HTTP/evil") == "mid-block")
                #expect(response.headers.first("x-bad") == "\u{FFFD}\u{FFFD}")
                #expect(response.headers.first("x-folded") == "a b")
                #expect(response.headers.first("x-n1999") == "1999")
                #expect(response.headers.count == 2_000 + 4)
            }
        }
    }

    @Test("a header line without a colon is a classified failure with libcurl's code and text")
    func headerWithoutColon() async throws {
        let bytes = Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nNoColonHere\r\n\r\nok".utf8)
        try await withRawServer(bytes) { _, request in
            try await withCurlEngine { engine in
                let failure = try await expectFailure(request, on: engine)
                #expect(failure.kind == .other)
                #expect(failure.curlCode == 8, "CURLE_WEIRD_SERVER_REPLY")
                #expect(failure.curlMessage.contains("colon"))
            }
        }
    }

    @Test("70,000 folded continuation lines just under libcurl's header cap become one value")
    func manyFoldedLines() async throws {
        let folds = 70_000
        var bytes = Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nX-Folded: a\r\n".utf8)
        for _ in 0..<folds { bytes += Array(" b\r\n".utf8) }
        bytes += Array("\r\nok".utf8)
        try await withRawServer(bytes) { _, request in
            try await withCurlEngine { engine in
                let response = try await engine.perform(request)
                #expect(response.headers.first("x-folded")?.utf8.count == 1 + 2 * folds)
                #expect(response.headers.count == 2)
            }
        }
    }

    @Test("more header bytes than libcurl accepts in total (300 KB) is a classified failure")
    func tooManyHeaderBytes() async throws {
        var bytes = Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n".utf8)
        for index in 0..<20_000 { bytes += Array("X-Header-\(index): 0123456789\r\n".utf8) }
        bytes += Array("\r\nok".utf8)
        try await withRawServer(bytes) { _, request in
            try await withCurlEngine { engine in
                let failure = try await expectFailure(request, on: engine)
                #expect(failure.kind == .other)
                #expect(failure.curlCode == 56, "CURLE_RECV_ERROR")
                #expect(failure.curlMessage.contains("Too large response headers"))
            }
        }
    }

    @Test("1xx interim responses are skipped: only the final response's headers remain")
    func interimResponses() async throws {
        let bytes = Array(
            ("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>; rel=preload\r\n\r\n"
                + "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nX-Final: yes\r\n\r\nok").utf8)
        try await withRawServer(bytes) { _, request in
            try await withCurlEngine { engine in
                let response = try await engine.perform(request)
                #expect(response.status == 200)
                #expect(response.headers.first("x-final") == "yes")
                #expect(!response.headers.contains("link"))
            }
        }
    }

    @Test("a Location header on a 200 is a header, not a redirect")
    func locationOnNon3xx() async throws {
        let bytes = Array("HTTP/1.1 200 OK\r\nLocation: https://elsewhere.test/\r\nContent-Length: 2\r\n\r\nok".utf8)
        try await withRawServer(bytes) { _, request in
            try await withCurlEngine { engine in
                let response = try await engine.perform(request)
                #expect(response.status == 200)
                #expect(response.redirectURL == nil)
                #expect(response.headers.first("location") == "https://elsewhere.test/")
            }
        }
    }

    @Test("headers followed by silence are a timeout that keeps the status")
    func headersThenStall() async throws {
        let bytes = Array("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\npartial".utf8)
        try await withRawServer(bytes) { _, request in
            try await withCurlEngine { engine in
                var request = request
                request.timeout = .milliseconds(500)
                let stalled = request
                // The server never sends the rest, so only the timeout ends the request. The wait is a hang guard far
                // above 500 ms, yet below the request's other limit (30 s): a request that ignored its timeout fails.
                let failure = try await finishes("the 500 ms timeout after the headers", within: .seconds(20)) {
                    try await expectFailure(stalled, on: engine)
                }
                #expect(failure.kind == .timeout)
                #expect(failure.curlCode == 28)
                #expect(failure.status == 200)
                #expect(!failure.curlMessage.isEmpty)
            }
        }
    }

    @Test("a single header line larger than libcurl accepts is a classified failure")
    func hugeHeaderLine() async throws {
        let bytes = Array(("HTTP/1.1 200 OK\r\nX-Huge: " + String(repeating: "a", count: 300_000) + "\r\n\r\n").utf8)
        try await withRawServer(bytes) { _, request in
            try await withCurlEngine { engine in
                let failure = try await expectFailure(request, on: engine)
                #expect(failure.kind == .other)
                #expect(failure.curlCode != 0)
                #expect(!failure.curlMessage.isEmpty)
            }
        }
    }

    @Test("an absurdly long timeout is clamped, not an arithmetic trap")
    func hugeTimeout() async throws {
        try await withRawServer(Array("HTTP/1.1 204 No Content\r\n\r\n".utf8)) { _, request in
            try await withCurlEngine { engine in
                var request = request
                request.timeout = .seconds(Int64.max)
                request.connectTimeout = .seconds(Int64.max)
                let response = try await engine.perform(request)
                #expect(response.status == 204)
            }
        }
    }
}
