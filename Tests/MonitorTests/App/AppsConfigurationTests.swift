import EndToEndSlot
import Foundation
import TestSupport
import Testing

/// `apps:` in the configuration, read by the real `config check`: every claimed domain is listed with the app it
/// comes from, and an app file that cannot be read is a configuration error at its key (issue 22, item 4).
@Suite("apps: in the configuration", .timeLimit(.minutes(10)), .endToEndSlot)
struct AppsConfigurationTests {
    /// The shop of issue 22 (main app, App Clip, credentials extension), its domains on `example.com`.
    static func writeShop(in directory: URL) throws -> String {
        try AppFixture.ipa(AppFixture.shop(), in: directory)
    }

    static func writeConfiguration(_ text: String, in directory: URL) throws -> String {
        let path = directory.appendingPathComponent("config.yml").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("config check lists every domain the app claims with the app IDs it must list, merged with domains:")
    func listsClaimedDomains() async throws {
        try await AppFixture.withTemporaryDirectory { directory in
            let ipa = try Self.writeShop(in: directory)
            let config = try Self.writeConfiguration(
                """
                domains:
                  - name: shop.example.com
                    expect:
                      urls: [{url: "https://shop.example.com/buy/1", app: ABCDE12345.com.example.shop}]
                apps:
                  - path: Shop.ipa
                """, in: directory)
            let run = try await MonitorBinary.run(["config", "check", "--config", config])
            #expect(run.status == 0, "\(run.error)")
            let lines = run.output.split(separator: "\n").map(String.init)
            // shop.example.com is configured and claimed: once. The wildcard is watched where Apple reads it.
            #expect(lines.first?.hasSuffix("valid: 3 domains, 0 webhooks, metrics endpoint off, 1 app") == true)
            #expect(lines.dropFirst().first == "\(ipa) claims 3 domains:")
            #expect(
                lines.contains(
                    "  shop.example.com: applinks ABCDE12345.com.example.shop, webcredentials "
                        + "ABCDE12345.com.example.shop, appclips ABCDE12345.com.example.shop.Clip"),
                "\(run.output)")
            #expect(lines.contains("  example.com: applinks ABCDE12345.com.example.shop"), "\(run.output)")
            #expect(
                lines.contains("  login.example.com: webcredentials ABCDE12345.com.example.shop.Credentials"),
                "\(run.output)")
        }
    }

    @Test("a truncated .ipa is a configuration error at apps[0].path with its line: exit 1")
    func truncatedApp() async throws {
        try await AppFixture.withTemporaryDirectory { directory in
            let ipa = try Self.writeShop(in: directory)
            let bytes = try Data(contentsOf: URL(fileURLWithPath: ipa))
            try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: ipa))
            let config = try Self.writeConfiguration("interval: 5m\napps:\n  - path: Shop.ipa\n", in: directory)
            let run = try await MonitorBinary.run(["config", "check", "--config", config])
            #expect(run.status == 1)
            #expect(run.output.isEmpty)
            let lines = run.error.split(separator: "\n")
            #expect(lines.count == 1, "one line: \(run.error)")
            #expect(run.error.hasPrefix("\(config):3: apps[0].path: \(ipa)"), "\(run.error)")
        }
    }

    @Test("a missing file, an .entitlements file without app_id and an app_id for an .ipa are errors at their key")
    func otherProblems() async throws {
        try await AppFixture.withTemporaryDirectory { directory in
            _ = try Self.writeShop(in: directory)
            let entitlements: [String: Any] = ["com.apple.developer.associated-domains": ["applinks:shop.example.com"]]
            try Data(MachOFixture.plist(entitlements, format: .xml))
                .write(to: directory.appendingPathComponent("Shop.entitlements"))
            let config = try Self.writeConfiguration(
                """
                apps:
                  - path: Missing.ipa
                  - path: Shop.entitlements
                  - path: Shop.ipa
                    app_id: ABCDE12345.com.example.shop
                  - path: Shop.entitlements
                    app_id: not-an-app-id
                """, in: directory)
            let run = try await MonitorBinary.run(["config", "check", "--config", config])
            #expect(run.status == 1)
            #expect(run.error.contains(":2: apps[0].path: "), "\(run.error)")
            #expect(run.error.contains(":3: apps[1]: missing 'app_id': "), "\(run.error)")
            #expect(run.error.contains(":5: apps[2].app_id: "), "\(run.error)")
            #expect(run.error.contains(":7: apps[3].app_id: expected an app ID"), "\(run.error)")
        }
    }

    @Test("an .entitlements file with app_id is watched as that app's claims")
    func entitlementsWithAppID() async throws {
        try await AppFixture.withTemporaryDirectory { directory in
            let entitlements: [String: Any] = ["com.apple.developer.associated-domains": ["applinks:shop.example.com"]]
            try Data(MachOFixture.plist(entitlements, format: .xml))
                .write(to: directory.appendingPathComponent("Shop.entitlements"))
            let config = try Self.writeConfiguration(
                "apps:\n  - {path: Shop.entitlements, app_id: ABCDE12345.com.example.shop}\n", in: directory)
            let run = try await MonitorBinary.run(["config", "check", "--config", config])
            #expect(run.status == 0, "\(run.error)")
            #expect(run.output.contains("  shop.example.com: applinks ABCDE12345.com.example.shop"), "\(run.output)")
        }
    }
}
