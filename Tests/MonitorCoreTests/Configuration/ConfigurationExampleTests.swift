import Foundation
import MonitorCore
import MonitorEvaluation
import Testing

@Suite("the documented example configuration")
struct ConfigurationExampleTests {
    /// `config/aasa-monitor.yml` at the top of the repository, found from this file's path.
    static let examplePath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("config/aasa-monitor.yml").path

    @Test("loads without problems and holds the defaults it documents")
    func exampleLoads() throws {
        let text = try String(contentsOfFile: Self.examplePath, encoding: .utf8)
        let configuration = try ConfigurationLoader.load(
            text: text, fileName: Self.examplePath, environment: [:], readFile: { _ in "" })
        #expect(configuration.stateDirectory == "/var/lib/aasa-monitor")
        #expect(configuration.interval == .seconds(900))
        #expect(configuration.listen == ListenAddress(host: "127.0.0.1", port: 9464))
        #expect(configuration.http == HTTPSettings())
        #expect(configuration.tls == TLSSettings())
        #expect(configuration.cdn == CDNSettings())
        #expect(configuration.retention == .seconds(90 * 86_400))
        #expect(configuration.alerts == AlertSettings())
        #expect(configuration.webhooks.isEmpty)
        #expect(configuration.domains.map(\.name) == ["example.com", "example.org"])
        let first = try #require(configuration.domains.first)
        #expect(first.interval == .seconds(300))
        #expect(first.expect.apps.map(\.service) == ["applinks", "webcredentials"])
        #expect(first.expect.urls.map(\.decision) == [.match, .notMatch])
    }

    @Test("an empty file and a file without domains are valid and watch nothing")
    func emptyFiles() throws {
        #expect(try ConfigurationTestSupport.load("") == MonitorConfiguration())
        #expect(try ConfigurationTestSupport.load("# only a comment\n") == MonitorConfiguration())
        #expect(try ConfigurationTestSupport.load("domains: []\n").domains.isEmpty)
        #expect(try ConfigurationTestSupport.load("interval: 1m\n").domains.isEmpty)
    }

    @Test("a bare domain name is a domain with no expectations, and wildcards are checked at their base")
    func bareNames() throws {
        let configuration = try ConfigurationTestSupport.load("domains:\n  - Example.COM\n  - '*.shop.example'\n")
        #expect(
            configuration.domains == [
                DomainConfiguration(name: "example.com"), DomainConfiguration(name: "shop.example"),
            ])
    }

    @Test("the configuration path is the flag, else the environment variable, else /etc")
    func location() {
        let environment = ["AASA_MONITOR_CONFIG": "/srv/env.yml"]
        #expect(ConfigurationLocation.resolve(flag: "/srv/flag.yml", environment: environment) == "/srv/flag.yml")
        #expect(ConfigurationLocation.resolve(flag: nil, environment: environment) == "/srv/env.yml")
        #expect(ConfigurationLocation.resolve(flag: nil, environment: [:]) == "/etc/aasa-monitor/config.yml")
        #expect(
            ConfigurationLocation.resolve(flag: nil, environment: ["AASA_MONITOR_CONFIG": ""])
                == "/etc/aasa-monitor/config.yml")
    }

    @Test("settings read from the file replace the defaults")
    func settingsRead() throws {
        let configuration = try ConfigurationTestSupport.load(
            """
            listen: "[::1]:9090"
            http:
              timeout: 5s
              ca_file: ca.pem
              connect_to: ["origin.test:443:127.0.0.1:8443", "::[::1]:8443"]
              concurrency: 4
            cdn:
              base_url: https://cdn.test/a/v1
            alerts:
              repeat_after: 0
              send_resolved: false
            """)
        #expect(configuration.listen == ListenAddress(host: "::1", port: 9090))
        #expect(configuration.listen?.description == "[::1]:9090")
        #expect(configuration.http.timeout == .seconds(5))
        #expect(configuration.http.caFile == "ca.pem")
        #expect(configuration.http.connectTo.count == 2)
        #expect(configuration.http.concurrency == 4)
        #expect(configuration.cdn.baseURL == "https://cdn.test/a/v1/")
        #expect(configuration.cdn.url(for: "example.com") == "https://cdn.test/a/v1/example.com")
        #expect(configuration.alerts.repeatAfter == nil)
        #expect(configuration.alerts.sendResolved == false)
    }
}
