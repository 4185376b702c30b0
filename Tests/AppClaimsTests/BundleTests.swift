import AASA
import AppClaims
import Foundation
import TestSupport
import Testing

/// `.app`, `.xcarchive` and `.ipa`: every binary (main app, App Clip, extension), each with its own app ID.
@Suite("bundles and archives")
struct BundleTests {
    static func expectShop(_ report: AppReport, prefix: String) throws {
        #expect(report.binaries.map(\.role) == [.app, .appClip, .appExtension])
        #expect(
            report.binaries.map(\.path) == [
                "\(prefix)Shop.app/Shop", "\(prefix)Shop.app/AppClips/ShopClip.app/ShopClip",
                "\(prefix)Shop.app/PlugIns/Credentials.appex/Credentials",
            ])
        #expect(
            report.binaries.map(\.appID) == [
                "ABCDE12345.com.example.shop", "ABCDE12345.com.example.shop.Clip",
                "ABCDE12345.com.example.shop.Credentials",
            ])
        #expect(
            report.binaries.map(\.bundleIdentifier) == [
                "com.example.shop", "com.example.shop.Clip", "com.example.shop.Credentials",
            ])
        let main = try #require(report.binaries.first)
        #expect(
            main.claims.map(\.entry) == [
                "applinks:shop.example.com", "webcredentials:shop.example.com", "applinks:*.example.com",
            ])
        #expect(report.binaries[1].claims.map(\.service) == [.appclips])
        #expect(report.binaries[2].claims.map(\.readDomain) == ["login.example.com"])
    }

    @Test("an .app folder: Info.plist names the executable; clips and plug-ins are read (binary Info.plist too)")
    func appFolder() async throws {
        try await AppFixture.withTemporaryDirectory { directory in
            let path = try AppFixture.appFolder(AppFixture.shop(), in: directory)
            let report = try AppReader.read(path: path)
            #expect(report.kind == .app)
            try Self.expectShop(report, prefix: "")
        }
    }

    @Test("an .xcarchive: Products/Applications/*.app")
    func xcarchive() async throws {
        try await AppFixture.withTemporaryDirectory { directory in
            let path = try AppFixture.xcarchive(AppFixture.shop(), in: directory)
            let report = try AppReader.read(path: path)
            #expect(report.kind == .xcarchive)
            try Self.expectShop(report, prefix: "Products/Applications/")
        }
    }

    @Test("an .ipa is read in place: Payload/*.app, nothing unpacked")
    func ipa() async throws {
        try await AppFixture.withTemporaryDirectory { directory in
            let path = try AppFixture.ipa(AppFixture.shop(), in: directory)
            let before = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            let report = try AppReader.read(path: path)
            #expect(report.kind == .ipa)
            try Self.expectShop(report, prefix: "Payload/")
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == before)
        }
    }

    @Test("a large executable in an .ipa is streamed: a signature 40 MB in is found")
    func largeExecutable() async throws {
        try await AppFixture.withTemporaryDirectory { directory in
            var shop = AppFixture.shop()
            shop.executable = MachOFixture.thin(
                .device(AppFixture.entitlements(bundleID: "com.example.shop", domains: ["applinks:big.example.com"])),
                padding: 40 << 20)
            shop.appClips = []
            shop.plugIns = []
            let ipa = try AppFixture.ipa(shop, in: directory)
            let report = try AppReader.read(path: ipa)
            #expect(report.binaries.first?.claims.map(\.domain) == ["big.example.com"])
        }
    }

    @Test("a fat executable and a simulator build inside an .ipa")
    func fatAndSimulator() async throws {
        try await AppFixture.withTemporaryDirectory { directory in
            let entitlements = AppFixture.entitlements(
                bundleID: "com.example.shop", domains: ["applinks:fat.example.com"])
            var shop = AppFixture.shop()
            shop.executable = MachOFixture.fat(
                [MachOFixture.thin(.device(entitlements)), MachOFixture.thin(.device(entitlements))], wide: true)
            shop.plugIns[0].executable = MachOFixture.thin(
                MachOFixture.Slice(
                    cpuType: 0x0100_0007,
                    simulatorEntitlements: MachOFixture.xml(
                        AppFixture.entitlements(
                            bundleID: "com.example.shop.Credentials", domains: ["webcredentials:sim.example.com"]))))
            let report = try AppReader.read(path: try AppFixture.ipa(shop, in: directory))
            #expect(report.binaries[0].architectures == ["arm64", "x86_64"])
            #expect(report.binaries[0].claims.map(\.domain) == ["fat.example.com"])
            #expect(report.binaries[2].entitlementsOrigin == .simulatorSection)
            #expect(report.binaries[2].claims.map(\.domain) == ["sim.example.com"])
        }
    }

    @Test("a lone Mach-O file is read as one binary")
    func loneExecutable() async throws {
        try await AppFixture.withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("Shop").path
            try Data(AppFixture.shop().executable).write(to: URL(fileURLWithPath: path))
            let report = try AppReader.read(path: path)
            #expect(report.kind == .machO)
            #expect(report.binaries.map(\.path) == ["Shop"])
            #expect(report.binaries.first?.claims.count == 3)
        }
    }
}

/// `.entitlements` files as Xcode writes them, in XML and binary form; they need an app ID.
@Suite("entitlements files")
struct EntitlementsFileTests {
    static func resource(_ name: String) throws -> String {
        let url = try #require(Bundle.module.url(forResource: "entitlements", withExtension: nil))
        return url.appendingPathComponent(name).path
    }

    @Test("a developer-mode applinks claim and a webcredentials claim")
    func developerMode() throws {
        let report = try AppReader.read(
            path: try Self.resource("developer-mode.entitlements"), appID: "QX7Y2Z8W4K.com.example.staging")
        let binary = try #require(report.binaries.first)
        #expect(report.kind == .entitlements)
        #expect(binary.appID == "QX7Y2Z8W4K.com.example.staging")
        #expect(binary.teamID == "QX7Y2Z8W4K")
        #expect(binary.entitlementsOrigin == .file)
        #expect(binary.claims.map(\.mode) == [.developer, .standard])
        #expect(binary.findings.map(\.code) == [.appDeveloperModeInDistribution])
    }

    @Test("a shop app's entitlements: two applinks claims among other entitlements")
    func shopApp() throws {
        let report = try AppReader.read(
            path: try Self.resource("shop-app.entitlements"), appID: "QX7Y2Z8W4K.com.example.shop")
        #expect(report.binaries.first?.claims.map(\.domain) == ["shop.example.com", "go.example.net"])
        #expect(report.binaries.first?.findings.isEmpty == true)
    }

    @Test("DuckDuckGo's credential provider claims no domain")
    func duckDuckGo() throws {
        let report = try AppReader.read(
            path: try Self.resource("duckduckgo-autofill-credential-provider.entitlements"),
            appID: "HKE973VLUW.com.duckduckgo.mobile.ios.CredentialExtension")
        #expect(report.binaries.first?.claims.isEmpty == true)
    }

    @Test("a binary property list reads the same as XML")
    func binaryPlist() async throws {
        try await AppFixture.withTemporaryDirectory { directory in
            let xml = try Data(contentsOf: URL(fileURLWithPath: try Self.resource("shop-app.entitlements")))
            let object = try PropertyListSerialization.propertyList(from: xml, format: nil)
            let path = directory.appendingPathComponent("Shop.entitlements")
            try Data(MachOFixture.plist(object, format: .binary)).write(to: path)
            let report = try AppReader.read(path: path.path, appID: "QX7Y2Z8W4K.com.example.shop")
            #expect(report.binaries.first?.claims.map(\.domain) == ["shop.example.com", "go.example.net"])
        }
    }

    @Test("without an app ID: app_id_required; a bad app ID or one for an app: invalid_app_id")
    func appIDRules() async throws {
        let path = try Self.resource("shop-app.entitlements")
        #expect(throws: AppClaimsError.self) { try AppReader.read(path: path) }
        do {
            _ = try AppReader.read(path: path)
        } catch {
            #expect(error.kind == .appIDRequired)
            #expect(error.description.hasPrefix(path + ": "))
        }
        do {
            _ = try AppReader.read(path: path, appID: "shop")
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == .invalidAppID)
        }
        try await AppFixture.withTemporaryDirectory { directory in
            let app = try AppFixture.appFolder(AppFixture.shop(), in: directory)
            do {
                _ = try AppReader.read(path: app, appID: "ABCDE12345.com.example.shop")
                Issue.record("expected an error")
            } catch let error as AppClaimsError {
                #expect(error.kind == .invalidAppID)
            }
        }
    }
}
