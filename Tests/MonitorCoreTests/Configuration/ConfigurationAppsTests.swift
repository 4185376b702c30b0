import MonitorCore
import MonitorEvaluation
import Testing

/// `apps:` in the pure loader, with the app files faked: claimed domains join `domains`, merged by name.
@Suite("apps: in the configuration loader")
struct ConfigurationAppsTests {
    static let shop = ExpectedApp(appID: "ABCDE12345.com.example.shop", claimedBy: "Shop.ipa Payload/Shop.app: x")
    static let clip = ExpectedApp(
        service: "appclips", appID: "ABCDE12345.com.example.shop.Clip", claimedBy: "Shop.ipa Payload/Shop.app: y")

    static func load(_ yaml: String) throws(ConfigurationErrors) -> LoadedConfiguration {
        let surroundings = ConfigurationSurroundings(
            environment: [:], readFile: { _ in "" }, caFileProblem: { _ in nil },
            readApp: { path, appID throws(AppFileProblem) in
                switch (path, appID) {
                case ("/etc/aasa-monitor/Shop.ipa", nil):
                    return ClaimedApp(
                        domains: [
                            DomainConfiguration(name: "example.com", expect: Expectations(apps: [shop])),
                            DomainConfiguration(name: "shop.example.com", expect: Expectations(apps: [shop, clip])),
                        ],
                        problems: ["Shop.ipa Payload/Shop.app/PlugIns/X.appex: error app.missing_app_id: …"])
                case (_, nil) where path.hasSuffix(".entitlements"):
                    throw AppFileProblem(key: .missingAppID, message: "\(path): names no app")
                default:
                    throw AppFileProblem(key: .path, message: "\(path): truncated")
                }
            })
        return try ConfigurationLoader.load(
            text: yaml, fileName: "/etc/aasa-monitor/config.yml", surroundings: surroundings)
    }

    @Test("claimed domains follow the configured ones; a configured one gets the claims merged into its expect")
    func merged() throws {
        let loaded = try Self.load(
            """
            domains:
              - name: shop.example.com
                expect: {apps: [ABCDE12345.com.example.shop, ABCDE12345.com.example.other]}
              - other.example
            apps:
              - path: Shop.ipa
            webhooks:
              - {name: ops, url: "https://hooks.example/x", domains: [example.com]}
            """)
        let configuration = loaded.configuration
        #expect(configuration.domains.map(\.name) == ["shop.example.com", "other.example", "example.com"])
        #expect(
            configuration.apps == [
                AppConfiguration(path: "/etc/aasa-monitor/Shop.ipa", domains: ["example.com", "shop.example.com"])
            ])
        let shop = configuration.domains[0].expect.apps
        #expect(shop.map(\.appID) == ["ABCDE12345.com.example.shop", "ABCDE12345.com.example.other", Self.clip.appID])
        #expect(configuration.domains[2].expect.apps == [Self.shop])
        // The app's own problem does not refuse the file: the other claims are watched.
        #expect(
            loaded.warnings.map(\.description) == [
                "/etc/aasa-monitor/config.yml:6: apps[0].path: Shop.ipa Payload/Shop.app/PlugIns/X.appex: error "
                    + "app.missing_app_id: …"
            ])
    }

    @Test("an app file that cannot be read is a problem at its key, with its line")
    func problems() {
        let yaml = """
            apps:
              - path: Broken.ipa
              - path: Shop.entitlements
              - {app_id: ABCDE12345.com.example.shop}
              - Shop.ipa
            """
        var problems: [String] = []
        do throws(ConfigurationErrors) {
            _ = try Self.load(yaml)
        } catch {
            problems = error.problems.map(\.description)
        }
        let file = "/etc/aasa-monitor/config.yml"
        #expect(
            problems == [
                "\(file):2: apps[0].path: /etc/aasa-monitor/Broken.ipa: truncated",
                "\(file):3: apps[1]: missing 'app_id': /etc/aasa-monitor/Shop.entitlements: names no app",
                "\(file):4: apps[2]: missing 'path', the app file: an .ipa, .app, .xcarchive, Mach-O executable or "
                    + ".entitlements",
                "\(file):5: apps[3]: expected a mapping, found \"Shop.ipa\"",
            ])
    }
}
