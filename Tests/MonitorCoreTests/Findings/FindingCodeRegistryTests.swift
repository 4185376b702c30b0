import AASA
import MonitorCore
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
        let expected = Set((FindingCode.document + FindingCode.expectation).map(\.id))
            .union(["origin.bom", "origin.content_type", "origin.signed"])
        #expect(content == expected)
    }
}
