import EndToEndSlot
import Foundation
import MonitorCore
import MonitorDaemon
import MonitorEvaluation
import TestSupport
import Testing

/// The real daemon with `shard: K/N` checks its shard's domains and never touches the others.
@Suite("daemon with shard", .serialized, .timeLimit(.minutes(10)), .endToEndSlot)
struct ShardDaemonTests {
    static let domains = (0..<8).map { "shop\($0).origin.test" }

    @Test("each of two daemons on the same list checks exactly its own shard's domains", arguments: [1, 2])
    func checksOnlyItsShard(index: Int) async throws {
        let mine = Self.domains.filter { Shard.shardIndex(of: $0, count: 2) == index }
        let others = Self.domains.filter { !mine.contains($0) }
        // Both shards hold domains, or the test would prove nothing.
        try #require(!mine.isEmpty && !others.isEmpty)
        let fixture = try DaemonFixture()
        try await fixture.withServers(domains: Self.domains) { origin, cdn, _, ca in
            try fixture.writeConfiguration(
                domains: Self.domains, origin: origin, cdn: cdn, caFile: ca, interval: "3s",
                extra: "shard: \(index)/2")
            let daemon = try fixture.startDaemon()
            // A second check of every own domain comes after the startup window (2 s + 50 ms per domain) in
            // which every scheduled domain gets its first check, so a domain of the other shard would show by now.
            try await eventually("two checks of each of \(mine)", log: daemon) {
                for domain in mine where try await DaemonTests.checks(fixture, domain: domain).count < 2 {
                    return false
                }
                return true
            }
            let hosts = Set(
                origin.requests.compactMap { request in
                    request.headers.first { [":authority", "host"].contains($0.0.lowercased()) }?.1
                })
            #expect(hosts == Set(mine), "the origin saw \(hosts.sorted())")
            #expect(Set(cdn.requests.map { $0.path }) == Set(mine.map { "/a/v1/\($0)" }))
            for domain in others {
                #expect(try await DaemonTests.checks(fixture, domain: domain).isEmpty, "\(domain) was checked")
            }
            daemon.send(SIGTERM)
            #expect(try await daemon.waitForExit() == 0)
        }
    }
}
