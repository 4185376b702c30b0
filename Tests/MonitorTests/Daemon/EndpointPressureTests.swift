import EndToEndSlot
import Foundation
import MonitorDaemon
import TestSupport
import Testing

/// The real daemon's endpoint through idle connections and HTTP/1.0 clients (issue 32 §2): a connection that sends
/// nothing gives its slot up once the endpoint is busy, and one whose client wants no keep-alive ends with its answer.
@Suite("endpoint under pressure", .serialized, .timeLimit(.minutes(10)), .endToEndSlot)
struct EndpointPressureTests {
    static let domains = ["a.origin.test"]

    /// Runs `body` with a daemon whose endpoint is listening, given the endpoint's port; always stops the daemon.
    static func withDaemon(_ body: (RunningMonitor, Int) async throws -> Void) async throws {
        let fixture = try DaemonFixture()
        try await fixture.withServers(domains: Self.domains) { origin, cdn, _, ca in
            try fixture.writeConfiguration(domains: Self.domains, origin: origin, cdn: cdn, caFile: ca)
            let daemon = try fixture.startDaemon()
            try await daemon.waitForLog("endpoint listening")
            let address = try StoreFaultTests.address(daemon)
            let port = try #require(Int(address.split(separator: ":").last ?? ""))
            try await body(daemon, port)
            daemon.send(SIGTERM)
            #expect(try await daemon.waitForExit() == 0)
        }
    }

    /// Reads until the server ends the connection; "reset", "closed" or, when the hang guard ran out first, "open".
    static func ending(of connection: EndpointLimitsTests.RawConnection) async -> String {
        guard await connection.read() == nil else { return "closed" }
        return connection.lastError == String(cString: strerror(ECONNRESET)) ? "reset" : "open"
    }

    @Test("an HTTP/1.0 request's connection ends with its answer, while an HTTP/1.1 one stays open for the next")
    func http10ConnectionCloses() async throws {
        try await Self.withDaemon { daemon, port in
            let keptAlive = try EndpointLimitsTests.RawConnection(port: port)
            keptAlive.send("HEAD /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")
            let first = await keptAlive.read(orUntil: "\r\n\r\n")
            #expect(first?.hasPrefix("HTTP/1.1 ") == true, "\(first ?? "no answer: \(keptAlive.lastError)")")
            // The hang guard (20 s) is shorter than the endpoint's idle timeout (30 s): an answer followed by the
            // server's close within it is the close after the answer, not the idle timeout's.
            let oldClient = try EndpointLimitsTests.RawConnection(port: port, guardSeconds: 20)
            oldClient.send("GET /healthz HTTP/1.0\r\nHost: localhost\r\n\r\n")
            let answer = await oldClient.read()
            #expect(answer != nil, "no close after the answer: \(oldClient.lastError)")
            #expect(
                answer?.hasPrefix("HTTP/1.0 ") == true, "an HTTP/1.0 client is answered in HTTP/1.0: \(answer ?? "")")
            #expect(answer?.lowercased().contains("connection: close") == true, "\(answer ?? "")")
            // After that close, the HTTP/1.1 connection answered first is still open and answers again.
            keptAlive.send("HEAD /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")
            let second = await keptAlive.read(orUntil: "\r\n\r\n")
            #expect(second?.hasPrefix("HTTP/1.1 ") == true, "\(second ?? "no answer: \(keptAlive.lastError)")")
            #expect(daemon.isRunning)
        }
    }

    @Test("once half the endpoint's slots are taken, connections that send nothing are reset; a request is answered")
    func idleConnectionsShedWhenBusy() async throws {
        try await Self.withDaemon { daemon, port in
            // 40 of the 64 slots: past half. The hang guard (25 s) is shorter than the idle timeout (30 s), so a
            // connection ended within it was not ended by the idle timeout; a reset says it was shed (SO_LINGER 0).
            var idle: [EndpointLimitsTests.RawConnection] = []
            for _ in 0..<40 { idle.append(try EndpointLimitsTests.RawConnection(port: port, guardSeconds: 25)) }
            let endings = await withTaskGroup(of: String.self) { group in
                for connection in idle { group.addTask { await Self.ending(of: connection) } }
                // A client that sends its request at once is served meanwhile.
                let client = try? EndpointLimitsTests.RawConnection(port: port)
                client?.send("HEAD /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
                let answer = await client?.read()
                #expect(answer?.hasPrefix("HTTP/1.1 ") == true, "\(answer ?? "no answer: \(client?.lastError ?? "")")")
                return await group.reduce(into: [String]()) { $0.append($1) }
            }
            let resets = endings.filter { $0 == "reset" }.count
            // Shedding stops when fewer than half the slots are taken: at least the 9 connections past 31 go.
            #expect(resets >= 9, "idle connections reset while busy: \(resets) of 40 (\(Set(endings)))")
            #expect(!endings.contains("closed"), "an idle connection was closed, not reset: \(endings)")
            try await eventually("the daemon logs the shed connections", log: daemon) {
                daemon.standardError.contains("endpoint busy: closed")
            }
        }
    }
}
