import EndToEndSlot
import Foundation
import TestSupport
import Testing

/// The real `aasa-monitor app` binary on apps written at test time: what it prints, its JSON, its exit codes, and
/// one clear line (exit 2) for every hostile file of issue 22 in bounded time and memory.
@Suite("app command", .timeLimit(.minutes(10)), .endToEndSlot)
struct AppCommandTests {
    static func json(_ output: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
    }

    @Test("app Shop.ipa prints every binary's app ID, build and claims, and exits 0")
    func text() async throws {
        try await AppFixture.withTemporaryDirectory { directory in
            let ipa = try AppFixture.ipa(AppFixture.shop(), in: directory)
            let run = try await MonitorBinary.run(["app", ipa])
            #expect(run.status == 0, "\(run.error)")
            for line in [
                "\(ipa) (ipa): 3 binaries", "Payload/Shop.app/Shop (app)",
                "  app ID: ABCDE12345.com.example.shop (team ABCDE12345)", "  build: distribution",
                "  applinks shop.example.com", "  applinks *.example.com (read at example.com)",
                "Payload/Shop.app/AppClips/ShopClip.app/ShopClip (app_clip)", "  appclips shop.example.com",
                "Payload/Shop.app/PlugIns/Credentials.appex/Credentials (extension)",
                "  webcredentials login.example.com",
            ] {
                #expect(run.output.contains(line + "\n"), "\(line)\n\(run.output)")
            }
        }
    }

    @Test("app Shop.ipa --json lists every app ID with all its claims, snake_case, nulls kept")
    func json() async throws {
        try await AppFixture.withTemporaryDirectory { directory in
            let ipa = try AppFixture.ipa(AppFixture.shop(), in: directory)
            let run = try await MonitorBinary.run(["app", ipa, "--json"])
            #expect(run.status == 0, "\(run.error)")
            let object = try Self.json(run.output)
            #expect(object["kind"] as? String == "ipa")
            let binaries = try #require(object["binaries"] as? [[String: Any]])
            #expect(
                binaries.compactMap { $0["app_id"] as? String } == [
                    "ABCDE12345.com.example.shop", "ABCDE12345.com.example.shop.Clip",
                    "ABCDE12345.com.example.shop.Credentials",
                ])
            #expect(binaries.compactMap { $0["role"] as? String } == ["app", "app_clip", "extension"])
            #expect(binaries.allSatisfy { $0["development"] as? Bool == false })
            let claims = try #require(binaries.first?["claims"] as? [[String: Any]])
            #expect(claims.count == 3)
            let wildcard = try #require(claims.first { $0["entry"] as? String == "applinks:*.example.com" })
            #expect(wildcard["service"] as? String == "applinks")
            #expect(wildcard["domain"] as? String == "*.example.com")
            #expect(wildcard["read_domain"] as? String == "example.com")
            #expect(wildcard["mode"] as? String == "standard")
            #expect(wildcard["reads_through_apple_cdn"] as? Bool == true)
            #expect(binaries.first?.keys.contains("bundle_identifier") == true)
        }
    }

    @Test("?mode=developer: exit 1 with an error in a distribution build, exit 0 with info in a development build")
    func developerMode() async throws {
        try await AppFixture.withTemporaryDirectory { directory in
            let domains = ["applinks:shop.example.com", "applinks:staging.example.com?mode=developer"]
            let release = try AppFixture.ipa(
                AppFixture.shop(mainDomains: domains), named: "Release.ipa", in: directory)
            let releaseRun = try await MonitorBinary.run(["app", release])
            #expect(releaseRun.status == 1, "\(releaseRun.output)\(releaseRun.error)")
            #expect(releaseRun.output.contains("  error app.developer_mode_in_distribution: "))
            #expect(releaseRun.output.contains("  applinks staging.example.com ?mode=developer (origin only)"))

            let debug = try AppFixture.ipa(
                AppFixture.shop(development: true, mainDomains: domains), named: "Debug.ipa", in: directory)
            let debugRun = try await MonitorBinary.run(["app", debug])
            #expect(debugRun.status == 0, "\(debugRun.output)\(debugRun.error)")
            #expect(debugRun.output.contains("  build: development (get-task-allow)"))
            #expect(debugRun.output.contains("  info app.developer_mode: "))
        }
    }

    @Test("the .xcarchive, the .app folder, a fat binary and a simulator build are read as the .ipa is")
    func otherForms() async throws {
        try await AppFixture.withTemporaryDirectory { directory in
            let archive = try AppFixture.xcarchive(AppFixture.shop(), in: directory)
            let folder = directory.appendingPathComponent("folder")
            let app = try AppFixture.appFolder(AppFixture.shop(), in: folder)
            let entitlements = AppFixture.entitlements(
                bundleID: "com.example.shop", domains: ["applinks:fat.example.com"])
            let fat = directory.appendingPathComponent("Shop").path
            try Data(
                MachOFixture.fat([MachOFixture.thin(.device(entitlements)), MachOFixture.thin(.device(entitlements))])
            ).write(to: URL(fileURLWithPath: fat))
            let simulator = directory.appendingPathComponent("ShopSim").path
            try Data(
                MachOFixture.thin(
                    MachOFixture.Slice(cpuType: 0x0100_0007, simulatorEntitlements: MachOFixture.xml(entitlements)))
            ).write(to: URL(fileURLWithPath: simulator))
            for (path, expected) in [
                (archive, "Products/Applications/Shop.app/AppClips/ShopClip.app/ShopClip (app_clip)"),
                (app, "Shop.app/PlugIns/Credentials.appex/Credentials (extension)"),
                (fat, "  entitlements: code signature (XML); arm64, x86_64"),
                (simulator, "  entitlements: simulator section __TEXT,__entitlements; x86_64"),
            ] {
                let run = try await MonitorBinary.run(["app", path])
                #expect(run.status == 0, "\(path): \(run.error)")
                #expect(run.output.contains(expected + "\n"), "\(run.output)")
            }
        }
    }

    @Test(".entitlements without --app-id is exit 2 saying so; with it, its claims are printed")
    func entitlementsFile() async throws {
        try await AppFixture.withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("Shop.entitlements").path
            try Data(
                MachOFixture.xml(["com.apple.developer.associated-domains": ["applinks:shop.example.com"]])
            ).write(to: URL(fileURLWithPath: path))
            let missing = try await MonitorBinary.run(["app", path])
            #expect(missing.status == 2)
            #expect(missing.error.contains("names no app: give --app-id TEAMID.bundle.id"), "\(missing.error)")
            #expect(missing.output.isEmpty)
            let given = try await MonitorBinary.run(["app", path, "--app-id", "ABCDE12345.com.example.shop", "--json"])
            #expect(given.status == 0, "\(given.error)")
            let binary = try #require((try Self.json(given.output)["binaries"] as? [[String: Any]])?.first)
            #expect(binary["app_id"] as? String == "ABCDE12345.com.example.shop")
            #expect(binary["entitlements_origin"] as? String == "file")
            let bad = try await MonitorBinary.run(["app", path, "--app-id", "shop"])
            #expect(bad.status == 2)
            #expect(bad.error.hasPrefix("error: --app-id: "), "\(bad.error)")
        }
    }

    @Test("control characters in a claimed domain are shown escaped; the claim is an error finding")
    func controlCharacters() async throws {
        try await AppFixture.withTemporaryDirectory { directory in
            let ipa = try AppFixture.ipa(
                AppFixture.shop(mainDomains: ["applinks:a\u{1b}[2Jb.example.com"]), in: directory)
            let run = try await MonitorBinary.run(["app", ipa])
            #expect(run.status == 1)
            #expect(!run.output.contains("\u{1b}"))
            #expect(run.output.contains("  applinks a\\x1b[2Jb.example.com"), "\(run.output)")
        }
    }

    /// One hostile input: a name and what it is made of.
    struct Hostile: Sendable, CustomStringConvertible {
        var name: String
        var make: @Sendable (URL) throws -> String
        var description: String { name }
    }

    static let hostile: [Hostile] = [
        Hostile(name: "truncated Mach-O") { directory in
            try write(Array(MachOFixture.thin(.device(entitlements)).prefix(20)), "Shop", directory)
        },
        Hostile(name: "not Mach-O") { directory in try write(Array("#!/bin/sh\n".utf8), "Shop", directory) },
        Hostile(name: "load commands outside the file") { directory in
            var bytes = MachOFixture.thin(.device(entitlements))
            bytes.patchLittleEndian(0x00ff_ffff, at: 20)
            return try write(bytes, "Shop", directory)
        },
        Hostile(name: "blob offset outside the file") { directory in
            let layout = MachOFixture.layout(.device(entitlements))
            var bytes = layout.bytes
            bytes.patchLittleEndian(0x7fff_ffff, at: (layout.codeSignatureCommandOffset ?? 0) + 8)
            return try write(bytes, "Shop", directory)
        },
        Hostile(name: "SuperBlob count in the billions") { directory in
            let layout = MachOFixture.layout(.device(entitlements))
            var bytes = layout.bytes
            bytes.patchBigEndian(3_000_000_000, at: (layout.superBlobOffset ?? 0) + 8)
            return try write(bytes, "Shop", directory)
        },
        Hostile(name: "entitlements blob not a plist") { directory in
            try write(MachOFixture.thin(MachOFixture.Slice(xmlEntitlements: Array("hello".utf8))), "Shop", directory)
        },
        Hostile(name: "100,000-deep plist nesting") { directory in
            let deep =
                "<plist>" + String(repeating: "<array>", count: 100_000) + String(repeating: "</array>", count: 100_000)
                + "</plist>"
            return try write(
                MachOFixture.thin(MachOFixture.Slice(xmlEntitlements: Array(deep.utf8))), "Shop", directory)
        },
        Hostile(name: "ZIP entry ../../x") { directory in
            try AppFixture.ipa(AppFixture.shop(), extra: [("../../x", [1, 2, 3])], in: directory)
        },
        Hostile(name: "deflate bomb") { directory in
            try AppFixture.bombIPA(bombing: "Payload/Shop.app/Shop", bundle: AppFixture.shop(), in: directory)
        },
        Hostile(name: "lying deflate bomb") { directory in
            try AppFixture.bombIPA(
                bombing: "Payload/Shop.app/Info.plist", declaring: 1_000, bundle: AppFixture.shop(), in: directory)
        },
        Hostile(name: "not a ZIP") { directory in
            try write([UInt8](repeating: 0x41, count: 4096), "Shop.ipa", directory)
        },
    ]

    static var entitlements: [String: Any] {
        AppFixture.entitlements(bundleID: "com.example.shop", domains: ["applinks:x.example.com"])
    }

    static func write(_ bytes: [UInt8], _ name: String, _ directory: URL) throws -> String {
        let url = directory.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    /// How long a hostile file may keep the binary running before the test kills it: a hang guard for a file that
    /// would never be refused, not a speed bound (no benchmark times hostile files; their limits are on work done).
    static let hangGuard = Duration.seconds(120)

    @Test("every hostile file: exit 2, one line naming it, under 200 MB, nothing written", arguments: hostile)
    func hostileFile(_ hostile: Hostile) async throws {
        try await AppFixture.withTemporaryDirectory { directory in
            let path = try hostile.make(directory)
            let before = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
            let process = try RunningMonitor(arguments: ["app", path])
            let deadline = ContinuousClock.now + Self.hangGuard
            var peakKilobytes = 0
            while process.isRunning, ContinuousClock.now < deadline {
                peakKilobytes = max(peakKilobytes, ResourceUsage.peakRSSKilobytes(pid: process.pid) ?? 0)
                try await Task.sleep(for: .milliseconds(5))
            }
            // Kills the binary and throws if it is still running at the hang guard.
            let status = try await process.waitForExit(timeout: .seconds(1))
            #expect(status == 2, "\(hostile): \(process.standardError)")
            let lines = process.standardError.split(separator: "\n")
            #expect(lines.count == 1, "\(process.standardError)")
            #expect(process.standardError.hasPrefix("error: \(path): "), "\(process.standardError)")
            #expect(process.standardOutput.isEmpty)
            #expect(peakKilobytes < 200 * 1024, "\(hostile): \(peakKilobytes) kB")
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == before)
        }
    }
}
