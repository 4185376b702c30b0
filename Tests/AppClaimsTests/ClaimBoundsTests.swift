import Foundation
import TestSupport
import Testing

@testable import AppClaims

/// Issue 35 §20: an app file's claims and the work of reading it are bounded, each bound a clear error naming the
/// file, the entry and what to do.
@Suite("claim bounds")
struct ClaimBoundsTests {
    static func domains(_ count: Int, prefix: String = "d") -> [String] {
        (0..<count).map { "applinks:\(prefix)\($0).example.com" }
    }

    @Test("a binary of 1,001 associated-domains entries is refused naming the entitlement and the bound; 1,000 pass")
    func entriesPerBinary() async throws {
        try await AppFixture.withTemporaryDirectory { directory in
            let tooMany = try AppFixture.ipa(
                AppFixture.shop(mainDomains: Self.domains(1_001)), named: "Many.ipa", in: directory)
            do throws(AppClaimsError) {
                _ = try AppReader.read(path: tooMany)
                Issue.record("1,001 entries were read")
            } catch {
                #expect(error.kind == .tooLarge)
                #expect(error.file == tooMany)
                #expect(error.member == "Payload/Shop.app/Shop")
                #expect(error.reason.contains("com.apple.developer.associated-domains lists 1001 entries"), "\(error)")
                #expect(error.reason.contains("at most 1000"), "\(error)")
            }
            // Duplicates count as entries (the bound is on what is signed), but are claimed once.
            // 998 and the other binaries' shop.example.com and login.example.com: the 1,000 domains an app may claim.
            let edge = Self.domains(998) + ["applinks:d0.example.com", "applinks:d1.example.com"]
            let fine = try AppFixture.ipa(AppFixture.shop(mainDomains: edge), named: "Edge.ipa", in: directory)
            let report = try AppReader.read(path: fine)
            #expect(report.binaries.first?.claims.count == 998)
        }
    }

    @Test("an app whose binaries together claim over 1,000 domains is refused, naming the binary that passes it")
    func domainsPerApp() async throws {
        try await AppFixture.withTemporaryDirectory { directory in
            // 998, shop.example.com (the App Clip) and login.example.com (the extension): 1,000; Share adds one.
            var shop = AppFixture.shop(mainDomains: Self.domains(998))
            let extra = MachOFixture.thin(
                .device(AppFixture.entitlements(bundleID: "com.example.shop.Share", domains: ["applinks:more.test"])))
            shop.plugIns.append(
                AppFixture.Bundle(name: "Share.appex", bundleID: "com.example.shop.Share", executable: extra))
            let app = try AppFixture.appFolder(shop, in: directory)
            do throws(AppClaimsError) {
                _ = try AppReader.read(path: app)
                Issue.record("1,001 domains were read")
            } catch {
                #expect(error.kind == .tooLarge)
                #expect(error.file == app)
                #expect(error.reason.contains("more than 1000 domains"), "\(error)")
                #expect(error.reason.contains("Shop.app/PlugIns/Share.appex/Share"), "\(error)")
            }
        }
    }

    /// A universal executable whose architecture table lists its later slice first: the streaming reader passes
    /// the earlier slice before it asks for it, so it reads the entry again and again (4 passes, then gives up).
    static func backwardsFat() -> [UInt8] {
        let entitlements = AppFixture.entitlements(bundleID: "com.example.shop", domains: ["applinks:x.example.com"])
        let slice = MachOFixture.thin(.device(entitlements), padding: 300_000)
        var fat = MachOFixture.fat([slice, slice])
        // Swap the two 20-byte fat_arch records (after the 8-byte header).
        let first = Array(fat[8..<28])
        fat.replaceSubrange(8..<28, with: fat[28..<48])
        fat.replaceSubrange(28..<48, with: first)
        return fat
    }

    @Test("every pass over every entry counts against one inflate budget per archive; the error says what to do")
    func inflateBudget() async throws {
        try await AppFixture.withTemporaryDirectory { directory in
            // An app in file order reads each executable once: a budget of its files' size is enough.
            let shop = AppFixture.shop()
            let ordered = try AppFixture.ipa(shop, named: "Shop.ipa", in: directory)
            let total = UInt64(shop.files().reduce(0) { $0 + $1.bytes.count })
            var fine = BundleWalker(store: try ZIPStore(path: ordered, inflateBudget: total), displayPrefix: "")
            try fine.readBundle(at: "Payload/Shop.app", role: .app)
            #expect(fine.binaries.count == 3)

            let executable = Self.backwardsFat()
            let bundle = AppFixture.Bundle(name: "Shop.app", bundleID: "com.example.shop", executable: executable)
            let ipa = try AppFixture.ipa(bundle, named: "Backwards.ipa", in: directory)
            let size = UInt64(executable.count)
            // Without the budget in the way, the reader makes its 4 passes (4 times the executable) and gives up…
            var roomy = BundleWalker(store: try ZIPStore(path: ipa, inflateBudget: size * 9 / 2), displayPrefix: "")
            do throws(AppClaimsError) {
                try roomy.readBundle(at: "Payload/Shop.app", role: .app)
                Issue.record("a backwards universal binary was read")
            } catch {
                #expect(error.reason.contains("point back and forth"), "\(error)")
            }
            // …a budget below that stops it, naming the entry, the budget and what to do.
            var tight = BundleWalker(store: try ZIPStore(path: ipa, inflateBudget: size * 7 / 2), displayPrefix: "")
            do throws(AppClaimsError) {
                try tight.readBundle(at: "Payload/Shop.app", role: .app)
                Issue.record("the passes were not counted")
            } catch {
                #expect(error.kind == .tooLarge)
                #expect(error.member == "Payload/Shop.app/Shop")
                #expect(error.reason.contains("more than \(size * 7 / 2) bytes of this archive in all"), "\(error)")
                #expect(error.reason.contains("every entry and every pass counted"))
                #expect(error.reason.contains("export it again from Xcode"))
            }
            #expect(ZIPStore.inflateBudget == 8 << 30)
        }
    }
}
