import EndToEndSlot
import Foundation
import MonitorDaemon
import MonitorStore
import Synchronization
import TestSupport
import Testing

/// The daemon's verdicts are `check`'s from its first check on: first sight of a file is not "the origin changed
/// then", and a copy of Apple's that only lags behind the origin is `cdn_stale`, not a failed expectation.
@Suite("daemon agrees with check", .serialized, .timeLimit(.minutes(10)), .endToEndSlot)
struct DaemonAgreesWithCheckTests {
    static let domain = "shop.origin.test"

    static func runs(_ fixture: DaemonFixture) async throws -> [StoredRun] {
        let reader = try StoreReader.openReadOnly(directory: fixture.stateDirectory)
        return try await reader.runs(domain: domain, limit: 1000).reversed()
    }

    @Test("Apple reporting a 403 only its network gets is origin_broken from the first check: one run, no cdn_missing")
    func firstCheckGivesChecksVerdict() async throws {
        let fixture = try DaemonFixture()
        // Apple's cached 404 is 10 minutes old; the daemon sees the origin's file for the first time now.
        fixture.cdn.withLock {
            $0 = (
                404, "",
                [
                    ("Apple-Failure-Reason", "SWCERR00101 Bad HTTP Response: 403 Forbidden"),
                    ("Cache-Control", "max-age=3600"), ("Age", "600"),
                ]
            )
        }
        try await fixture.withServers(domains: [Self.domain]) { origin, cdn, _, ca in
            try fixture.writeConfiguration(domains: [Self.domain], origin: origin, cdn: cdn, caFile: ca)
            let daemon = try fixture.startDaemon()
            try await eventually("3 checks", log: daemon) {
                try await Self.runs(fixture).reduce(0) { $0 + $1.checks } >= 3
            }
            let runs = try await Self.runs(fixture)
            #expect(runs.map(\.verdict) == ["origin_broken"], "\(runs.map(\.verdict))")
            let status = try await MonitorBinary.run(["status", "--config", fixture.configPath])
            #expect(status.output.contains("missing since"), "\(status.output)")
            #expect(!status.output.contains("stale since"))
            daemon.send(SIGTERM)
            #expect(try await daemon.waitForExit() == 0)
        }
    }

    @Test("an expected app the origin lists and Apple's copy does not yet is cdn_stale, with the advice to wait")
    func laggingCopyIsStale() async throws {
        let fixture = try DaemonFixture()
        let clip = "9JA89QQLNQ.com.example.clip"
        let withClip =
            #"{"applinks":{"details":[{"appIDs":["\#(DaemonFixture.app)","\#(clip)"],"components":[{"/":"/buy/*"}]}]}}"#
        fixture.origin.withLock { $0 = (200, withClip) }
        try await fixture.withServers(domains: [Self.domain]) { origin, cdn, _, ca in
            let entry = "\(Self.domain)\n    expect:\n      apps: [\"\(clip)\"]"
            try fixture.writeConfiguration(domains: [entry], origin: origin, cdn: cdn, caFile: ca)
            let daemon = try fixture.startDaemon()
            try await eventually("2 checks", log: daemon) {
                try await Self.runs(fixture).reduce(0) { $0 + $1.checks } >= 2
            }
            #expect(try await Self.runs(fixture).map(\.verdict) == ["cdn_stale"])
            let status = try await MonitorBinary.run(["status", "--config", fixture.configPath])
            #expect(status.output.contains("wait for Apple's refresh"), "\(status.output)")
            #expect(!status.output.contains("add it to the file"))
            daemon.send(SIGTERM)
            #expect(try await daemon.waitForExit() == 0)
        }
    }
}
