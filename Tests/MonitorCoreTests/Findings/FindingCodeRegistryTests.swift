import AASA
import Foundation
import MonitorCore
import MonitorEvaluation
import Testing

@Suite("The finding code registry")
struct FindingCodeRegistryTests {
    @Test("ids are unique, start with their family, and look up to the same member")
    func ids() throws {
        let ids = FindingCode.all.map(\.id)
        #expect(Set(ids).count == ids.count)
        for code in FindingCode.all {
            #expect(code.id.hasPrefix(code.family.rawValue + "."))
            #expect(try #require(FindingCode(id: code.id)) == code)
        }
        #expect(FindingCode(id: "origin.bot_block") == nil)
    }

    @Test("the registry lists every family, each family's codes as one block, the app reader's last")
    func families() {
        let families = FindingCode.all.map(\.family)
        #expect(Set(families) == Set(FindingCode.Family.allCases))
        // A family's codes are adjacent (origin.* and the body's origin.* codes are one block), as --list shows.
        let blocks = families.enumerated().filter { $0.offset == 0 || families[$0.offset - 1] != $0.element }
        #expect(blocks.map(\.element) == [.origin, .document, .cdn, .expectation, .monitor, .app])
        #expect(Array(FindingCode.all.suffix(FindingCode.app.count)) == FindingCode.app)
    }

    @Test("the app reader's codes are registered, explained and severe as before, and no alert's code")
    func appFamily() throws {
        #expect(
            FindingCode.app.map(\.id) == [
                "app.unknown_service", "app.invalid_entry", "app.invalid_mode", "app.invalid_domain",
                "app.developer_mode_in_distribution", "app.developer_mode", "app.missing_app_id", "app.invalid_app_id",
                "app.no_entitlements", "app.invalid_entitlement", "app.slices_differ",
            ])
        for code in FindingCode.app {
            #expect(code.family == .app)
            #expect(try #require(FindingCode(id: code.id)) == code)
            #expect(code.escalatesTo == nil && !code.concernsContent, "\(code.id)")
        }
        #expect(FindingCode.app.filter { $0.severity == .info } == [.appDeveloperMode, .appNoEntitlements])
        // A silence names an alert's code: a typo near an app code is not offered one.
        #expect(FindingCode.nearest(to: "app.slices_differ").family != .app)
    }

    @Test("every code explains itself in one line per part: meaning, why Apple cares, fix, example")
    func texts() {
        for code in FindingCode.all {
            for text in [code.meaning, code.whyAppleCares, code.fix, code.example] {
                #expect(!text.isEmpty, "\(code.id)")
                #expect(!text.contains("\n"), "\(code.id)")
            }
        }
    }

    @Test("the codes the document parser and lint raise are registered with the monitor's")
    func documentCodesRegistered() {
        let registered = Set(FindingCode.all)
        #expect(registered.isSuperset(of: FindingCode.body + FindingCode.document))
    }

    @Test(
        "the nearest code to a typo, a code without its family, or other case",
        arguments: [
            ("origin.bot_block", "origin.bot_blocked"), ("bot_blocked", "origin.bot_blocked"),
            ("CDN.STALE", "cdn.stale"), ("expect.urls", "expect.url"), ("aasa.appid_fromat", "aasa.appid_format"),
        ])
    func nearest(typed: String, expected: String) {
        #expect(FindingCode.nearest(to: typed).id == expected)
    }

    @Test("only problems of a file's content wait for a read copy before they resolve")
    func contentCodes() {
        let content = Set(FindingCode.all.filter(\.concernsContent).map(\.id))
        // expect.app_claim is about the build, not the file: it holds whatever the copies serve.
        let expected = Set((FindingCode.document + FindingCode.expectation).map(\.id))
            .union(["origin.bom", "origin.content_type", "origin.signed"]).subtracting([FindingCode.expectAppClaim.id])
        #expect(content == expected)
    }
}

@Suite("Codes read from stored rows")
struct StoredFindingCodeTests {
    @Test("a stored id reads as its registered member, the very value findings carry")
    func registered() {
        let code = FindingCode(storedID: "origin.bot_blocked")
        #expect(code == .originBotBlocked)
        #expect(code.isRegistered)
        #expect(code.fix == FindingCode.originBotBlocked.fix)
    }

    @Test("an id this version does not know keeps its text, family and general advice, and never traps")
    func unregistered() throws {
        let code = FindingCode(storedID: "cdn.from_the_future")
        #expect(code.id == "cdn.from_the_future")
        #expect(!code.isRegistered)
        #expect(code.family == .cdn)
        #expect(!code.concernsContent)
        #expect(code != .cdnStale)
        #expect(code.fix == FindingCode(storedID: "x").fix)
        #expect(FindingCode(storedID: "x").family == .origin)
        #expect(FindingCode(id: "cdn.from_the_future") == nil)
    }

    @Test("every monitor condition is a registered code of the monitor family, listed in the registry")
    func monitorFamily() {
        #expect(FindingCode.monitor.allSatisfy { $0.family == .monitor && $0.id.hasPrefix("monitor.") })
        #expect(
            FindingCode.monitor.map(\.id)
                == ["monitor.cdn_unreachable", "monitor.network", "monitor.resources", "monitor.store"])
        #expect(Set(FindingCode.all).isSuperset(of: FindingCode.monitor))
    }

    @Test("a finding, its cause and an alert key with an unknown code are read and written back byte for byte")
    func rowsRoundTrip() throws {
        let stored = #"""
            {"caused_by":{"code":"monitor.from_the_future","relation":"consequence","source":"cdn"},\#
            "code":"origin.from_the_future","detail":{},"message":"m","severity":"warning",\#
            "source":"origin.well-known","subject":""}
            """#
        let finding = try MonitorJSON.decoder().decode(ReportFinding.self, from: Data(stored.utf8))
        #expect(finding.code.id == "origin.from_the_future")
        #expect(String(decoding: try MonitorJSON.encoder().encode(finding), as: UTF8.self) == stored)
        let cause = try #require(finding.causedBy)
        #expect(cause.text == "no domain alert: the monitor's own trouble, reported once as monitor.from_the_future")
        let identity = finding.identity(domain: "example.com")
        #expect(
            identity
                == FindingIdentity(
                    domain: "example.com", code: FindingCode(storedID: "origin.from_the_future"), source: .wellKnown,
                    subject: ""))
    }
}
