import EndToEndSlot
import Foundation
import HTTPEngine
import MonitorCheck
import MonitorCore
import MonitorDaemon
import MonitorEvaluation
import Synchronization
import TestSupport
import Testing

@Suite("CDN retry", .timeLimit(.minutes(10)), .endToEndSlot)
struct CDNRetryTests {
    @Test("a broken answer on the shared CDN connection is tried once more, and a second failure is reported")
    func retriesOnce() async throws {
        let attempts = Mutex(0)
        let garbage = FixtureResponse(rawHTTP1: Array("NOT HTTP AT ALL\r\n\r\n".utf8))
        let route = FixtureRoute("/a/v1/shop.test") { _ in
            let attempt = attempts.withLock { count in
                count += 1
                return count
            }
            return attempt == 1 || attempt >= 3 ? garbage : .text("{}", headers: [("Content-Type", "application/json")])
        }
        try await withFixtureServer(certificate: .valid(for: "cdn.test"), protocols: .http1Only, routes: [route]) {
            cdn in
            let settings = ProbeSettings(
                version: "test", cdnBaseURL: "https://cdn.test/a/v1/", timeout: ProbeFixtures.timeout,
                connectTo: [try ConnectToRule(parsing: cdn.connectTo("cdn.test"))], trust: .only(caFile: cdn.caFile))
            try await withCurlEngine { engine in
                let probe = DomainProbe(engine: engine, settings: settings)
                let recovered = await probe.observeCDN(domain: "shop.test")
                #expect(recovered.response?.status == 200)
                #expect(attempts.withLock { $0 } == 2)
                let failed = await probe.observeCDN(domain: "shop.test")
                #expect(failed.failure?.kind == .other)
                #expect(attempts.withLock { $0 } == 4)
            }
        }
    }
}
