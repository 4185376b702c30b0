import AASA
import Foundation
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

    @Test("every code declared anywhere in Sources is in the registry's list, so `explain --list` misses none")
    func everyDeclarationListed() throws {
        // Static members cannot be enumerated at run time, so the declarations are read from the source.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let sources = root.appendingPathComponent("Sources")
        var declared: [String] = []
        let paths = FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String } ?? []
        for path in paths where path.hasSuffix(".swift") {
            let text = try String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8)
            for match in text.matches(of: /FindingCode\(\s*\.(\w+),\s*"([a-z_.]+)"/) {
                let family = FindingCode.Family.allCases.first { "\($0)" == match.output.1 }
                declared.append("\(family?.rawValue ?? String(match.output.1)).\(match.output.2)")
            }
        }
        #expect(!paths.isEmpty)
        #expect(declared.count == FindingCode.all.count)
        #expect(Set(declared) == Set(FindingCode.all.map(\.id)))
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
