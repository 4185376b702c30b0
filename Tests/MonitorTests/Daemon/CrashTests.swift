import EndToEndSlot
import Foundation
import MonitorDaemon
import MonitorStore
import TestSupport
import Testing

/// kill -9 in the middle of writing: the database opens, passes `PRAGMA integrity_check`, and the next run goes on.
@Suite("daemon crash", .serialized, .timeLimit(.minutes(10)), .endToEndSlot)
struct CrashTests {
    @Test("SIGKILL during checks never corrupts the database, and each restart continues from it")
    func killNine() async throws {
        let fixture = try DaemonFixture()
        let domains = (0..<12).map { "d\($0).origin.test" }
        try await fixture.withServers(domains: domains) { origin, cdn, _, ca in
            try fixture.writeConfiguration(domains: domains, origin: origin, cdn: cdn, caFile: ca)
            var total = 0
            for round in 0..<4 {
                let daemon = try fixture.startDaemon()
                // Kill while checks are being written: after more checks than before have landed, so the writer
                // is busy, at a moment that varies per round.
                try await eventually("round \(round): checks landing", log: daemon) {
                    try await Self.count(fixture, domains: domains) >= total + 6 + round
                }
                daemon.send(SIGKILL)
                #expect(try await daemon.waitForExit() == 128 + SIGKILL)
                let reader = try StoreReader.openReadOnly(directory: fixture.stateDirectory)
                #expect(try await reader.integrityCheck() == ["ok"])
                let now = try await Self.count(fixture, domains: domains)
                #expect(now > total)
                total = now
            }
            let final = try fixture.startDaemon()
            try await eventually("a run after the crashes continues", log: final) {
                try await Self.count(fixture, domains: domains) > total
            }
            final.send(SIGTERM)
            #expect(try await final.waitForExit() == 0)
        }
    }

    /// Every check of `domains` the runs count.
    static func count(_ fixture: DaemonFixture, domains: [String]) async throws -> Int {
        var total = 0
        for domain in domains { total += try await DaemonTests.checks(fixture, domain: domain).count }
        return total
    }
}
