import AASA
import AppClaims
import Foundation
import TestSupport
import Testing

/// Thin and universal executables in every layout Apple's headers allow, read for their entitlements.
@Suite("Mach-O and code signature")
struct MachOReaderTests {
    static var entitlements: [String: Any] {
        AppFixture.entitlements(
            bundleID: "com.example.shop", domains: ["applinks:shop.example.com", "webcredentials:*.example.com"])
    }

    struct Layout: Sendable, CustomStringConvertible {
        var wide: Bool
        var bigEndian: Bool
        var cpuType: UInt32
        var description: String { "\(wide ? 64 : 32)-bit \(bigEndian ? "big" : "little")-endian" }
    }

    @Test(
        "a thin executable's XML entitlements give app ID, team and claims",
        arguments: [
            Layout(wide: true, bigEndian: false, cpuType: 0x0100_000c),
            Layout(wide: false, bigEndian: false, cpuType: 12),
            Layout(wide: false, bigEndian: true, cpuType: 18),
            Layout(wide: true, bigEndian: true, cpuType: 0x0100_0012),
        ])
    func thin(layout: Layout) throws {
        let bytes = MachOFixture.thin(
            MachOFixture.Slice(
                cpuType: layout.cpuType, bigEndian: layout.bigEndian, wide: layout.wide,
                xmlEntitlements: MachOFixture.xml(Self.entitlements)))
        let claims = try AppClaimsParser.binary(bytes, path: "Shop")
        #expect(claims.appID == "ABCDE12345.com.example.shop")
        #expect(claims.teamID == "ABCDE12345")
        #expect(claims.isDevelopment == false)
        #expect(claims.entitlementsOrigin == .signatureXML)
        #expect(claims.claims.map(\.entry) == ["applinks:shop.example.com", "webcredentials:*.example.com"])
        #expect(claims.claims.map(\.readDomain) == ["shop.example.com", "example.com"])
        #expect(claims.findings.isEmpty)
    }

    @Test("the DER blob is read when there is no XML blob; the XML blob wins when both are there")
    func der() throws {
        let derOnly = MachOFixture.thin(MachOFixture.Slice(derEntitlements: MachOFixture.der(Self.entitlements)))
        let fromDER = try AppClaimsParser.binary(derOnly, path: "Shop")
        #expect(fromDER.entitlementsOrigin == .signatureDER)
        #expect(fromDER.appID == "ABCDE12345.com.example.shop")
        #expect(fromDER.claims.count == 2)
        #expect(fromDER.entitlements["get-task-allow"] == .boolean(false))

        let both = MachOFixture.thin(.device(Self.entitlements))
        let fromBoth = try AppClaimsParser.binary(both, path: "Shop")
        #expect(fromBoth.entitlementsOrigin == .signatureXML)
        #expect(fromBoth.entitlements == fromDER.entitlements)
    }

    @Test("a simulator build's __TEXT,__entitlements section is read when the signature has none")
    func simulator() throws {
        let bytes = MachOFixture.thin(
            MachOFixture.Slice(
                cpuType: 0x0100_0007, simulatorEntitlements: MachOFixture.xml(Self.entitlements)))
        let claims = try AppClaimsParser.binary(bytes, path: "Shop")
        #expect(claims.entitlementsOrigin == .simulatorSection)
        #expect(claims.architectures == ["x86_64"])
        #expect(claims.claims.count == 2)
    }

    @Test("universal files with FAT_MAGIC and FAT_MAGIC_64: every slice read, same claims, no finding")
    func fat() throws {
        for wide in [false, true] {
            let slices = [
                MachOFixture.thin(.device(Self.entitlements)),
                MachOFixture.thin(
                    MachOFixture.Slice(cpuType: 0x0100_0007, xmlEntitlements: MachOFixture.xml(Self.entitlements))),
            ]
            let claims = try AppClaimsParser.binary(MachOFixture.fat(slices, wide: wide), path: "Shop")
            #expect(claims.architectures == ["arm64", "x86_64"])
            #expect(claims.claims.count == 2)
            #expect(claims.findings.isEmpty, "\(claims.findings)")
        }
    }

    @Test("slices that claim differently are reported, and every claim of any slice is kept")
    func slicesDiffer() throws {
        var other = Self.entitlements
        other["com.apple.developer.associated-domains"] = ["applinks:shop.example.com", "applinks:beta.example.com"]
        let bytes = MachOFixture.fat([
            MachOFixture.thin(.device(Self.entitlements)), MachOFixture.thin(.device(other)),
        ])
        let claims = try AppClaimsParser.binary(bytes, path: "Shop")
        let finding = try #require(claims.findings.first { $0.code == .appSlicesDiffer })
        #expect(finding.severity == .error)
        #expect(finding.message.contains("slice x86_64"))
        #expect(finding.message.contains("com.apple.developer.associated-domains"))
        #expect(
            claims.claims.map(\.entry) == [
                "applinks:shop.example.com", "webcredentials:*.example.com", "applinks:beta.example.com",
            ])
    }

    @Test("an unsigned executable claims nothing, with an info finding")
    func unsigned() throws {
        let claims = try AppClaimsParser.binary(MachOFixture.thin(MachOFixture.Slice(signed: false)), path: "Shop")
        #expect(claims.appID == nil)
        #expect(claims.claims.isEmpty)
        #expect(claims.findings.map(\.code) == [.appNoEntitlements])
    }

    @Test("a development build (get-task-allow) with ?mode=developer: info; a distribution build: error")
    func developerMode() throws {
        for development in [true, false] {
            let entitlements = AppFixture.entitlements(
                bundleID: "com.example.shop", domains: ["applinks:staging.example.com?mode=developer"],
                development: development)
            let claims = try AppClaimsParser.binary(MachOFixture.thin(.device(entitlements)), path: "Shop")
            #expect(claims.isDevelopment == development)
            #expect(claims.claims.first?.mode == .developer)
            #expect(claims.claims.first?.readsThroughAppleCDN == false)
            let finding = try #require(claims.findings.first)
            #expect(finding.code == (development ? .appDeveloperMode : .appDeveloperModeInDistribution))
            #expect(finding.severity == (development ? .info : .error))
            #expect(finding.entry == "applinks:staging.example.com?mode=developer")
        }
    }

    @Test("macOS: com.apple.application-identifier is the app ID")
    func macOS() throws {
        let entitlements: [String: Any] = [
            "com.apple.application-identifier": "ABCDE12345.com.example.mac",
            "com.apple.developer.associated-domains": ["applinks:mac.example.com"],
        ]
        let claims = try AppClaimsParser.binary(MachOFixture.thin(.device(entitlements)), path: "Mac")
        #expect(claims.appID == "ABCDE12345.com.example.mac")
        #expect(claims.teamID == "ABCDE12345")
    }

    @Test("claims without an app ID are an error finding: no file can list the app")
    func missingAppID() throws {
        let entitlements: [String: Any] = ["com.apple.developer.associated-domains": ["applinks:x.example.com"]]
        let claims = try AppClaimsParser.binary(MachOFixture.thin(.device(entitlements)), path: "Shop")
        #expect(claims.findings.map(\.code) == [.appMissingAppID])
    }
}
