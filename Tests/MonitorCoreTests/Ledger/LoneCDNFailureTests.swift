import AASA
import Foundation
import MonitorCore
import MonitorEvaluation
import Testing

/// Issue 35 item 10: a CDN failing for one domain alone becomes the domain's own alert after a stated time.
@Suite("a lone CDN failure")
struct LoneCDNFailureTests {
    typealias F = ObservationFixtures

    static let failing = F.evaluate(F.observation(cdn: F.status(503)))

    static func open(since: Date) -> [OpenFinding] {
        failing.findings.filter { $0.has(.cdnUnreachable) }.map {
            OpenFinding(key: $0.openKey, severity: .warning, message: $0.message, since: since)
        }
    }

    @Test("before the time, or while the monitor's own condition holds the CDN, it stays the monitor's")
    func staysTheMonitors() throws {
        #expect(Self.open(since: F.now).count == 1)
        let early = LoneCDNFailure.promote(
            Self.failing, previous: Self.open(since: F.now.addingTimeInterval(-1799)), cdnHeld: false, now: F.now)
        #expect(early == Self.failing)
        let held = LoneCDNFailure.promote(
            Self.failing, previous: Self.open(since: F.now.addingTimeInterval(-7200)), cdnHeld: true, now: F.now)
        #expect(held == Self.failing)
        let firstSight = LoneCDNFailure.promote(Self.failing, previous: [], cdnHeld: false, now: F.now)
        #expect(firstSight == Self.failing)
        // Not reaching the CDN at all is this host's side, never the domain's, however long it lasts.
        let unreached = F.evaluate(F.observation(cdn: F.failure(.timeout)))
        let open = unreached.findings.filter { $0.has(.cdnUnreachable) }.map {
            OpenFinding(
                key: $0.openKey, severity: .warning, message: $0.message, since: F.now.addingTimeInterval(-7200))
        }
        #expect(open.count == 1)
        #expect(LoneCDNFailure.promote(unreached, previous: open, cdnHeld: false, now: F.now) == unreached)
    }

    @Test("after 30 minutes alone, it is the domain's error, caused by nothing, and says since when")
    func becomesTheDomains() throws {
        let since = F.now.addingTimeInterval(-1800)
        let promoted = LoneCDNFailure.promote(
            Self.failing, previous: Self.open(since: since), cdnHeld: false, now: F.now)
        let finding = try #require(promoted.findings.first { $0.has(.cdnUnreachable) })
        #expect(finding.severity == .error)
        #expect(finding.causedBy == nil)
        #expect(
            finding.message.hasPrefix("Apple's CDN has answered 503 for this domain since \(RFC3339.string(since))"))
    }
}
