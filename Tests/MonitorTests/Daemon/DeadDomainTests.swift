import EndToEndSlot
import Foundation
import Glibc
import MonitorDaemon
import TestSupport
import Testing

/// Issue 35 item 13 with the real daemon: a dead domain (its name does not exist) while Apple's CDN host fails DNS
/// is the domain's own `origin.dns`, not `monitor.network` holding every origin alert.
@Suite("a dead domain is not this host's network", .serialized, .timeLimit(.minutes(10)), .endToEndSlot)
struct DeadDomainTests {
    /// What this host's resolver says of `host`: `EAI_NONAME` (the name does not exist) or another answer.
    static func resolverSaysNoSuchName(_ host: String) -> Bool {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var result: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, "443", &hints, &result)
        if let result { freeaddrinfo(result) }
        return status == EAI_NONAME || status == -5
    }

    @Test("dead.test failing DNS while the CDN host fails DNS too: origin.dns fires for it, monitor.network does not")
    func deadDomainDuringCDNBlip() async throws {
        let dead = "dead.test"
        // The reserved .test names resolve nowhere; a resolver that cannot be reached gives no NXDOMAIN, and then
        // both failing DNS is this host's trouble, as before: the test says which world it ran in.
        let nameDoesNotExist = Self.resolverSaysNoSuchName(dead)
        let fixture = try DaemonFixture()
        try await withFixtureServer(certificate: .valid(for: "localhost"), routes: fixture.receiverRoutes()) {
            receiver in
            let ca = try writeCABundle([receiver], tag: "dead")
            defer { try? FileManager.default.removeItem(atPath: ca) }
            let text = """
                state_dir: \(fixture.stateDirectory)
                interval: 1s
                listen: 127.0.0.1:0
                http:
                  timeout: \(DaemonFixture.patientTimeout)
                  ca_file: \(ca)
                cdn:
                  base_url: https://cdn-blip.test/a/v1/
                domains:
                  - name: \(dead)
                alerts: { failure_threshold: 1, success_threshold: 1, repeat_after: 0 }
                \(fixture.webhooksSection(receiver: receiver, caFile: ca))
                """
            try text.write(toFile: fixture.configPath, atomically: true, encoding: .utf8)
            let daemon = try fixture.startDaemon()
            try await eventually("three checks", log: daemon) {
                try await DaemonTests.checks(fixture, domain: dead).count >= 3
            }
            daemon.send(SIGTERM)
            #expect(try await daemon.waitForExit() == 0)
            let types = IncidentEndToEndTests.standardTypes(receiver)
            let status = try await MonitorBinary.run(["status", dead, "--config", fixture.configPath]).output
            if nameDoesNotExist {
                #expect(!types.contains { $0.code == "monitor.network" }, "\(types)")
                #expect(types.contains { $0.type == "alert.firing" && $0.code == "origin.dns" }, "\(types)")
                #expect(status.contains("origin_broken  \(dead)"), "\(status)")
                #expect(status.contains("does not exist (NXDOMAIN)"), "\(status)")
            } else {
                #expect(types.contains { $0.code == "monitor.network" }, "\(types)")
            }
        }
    }
}
