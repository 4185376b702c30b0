import MonitorCore
import MonitorEvaluation
import Testing

@Suite("Configuration: YAML aliases")
struct ConfigurationAliasTests {
    @Test("a small file whose aliases repeat lists into a million items is refused, not loaded for hours")
    func aliasExpansion() {
        let url = #"{url: "https://example.com/buy/1", app: 9JA89QQLNQ.com.example.app}"#
        let urls = Array(repeating: url, count: 1000).joined(separator: ", ")
        let yaml = """
            domains:
              - &d {name: example.com, expect: {urls: [\(urls)]}}
            \(Array(repeating: "  - *d", count: 999).joined(separator: "\n"))
            """
        #expect(yaml.utf8.count < 100_000)
        let problems = ConfigurationTestSupport.problems(yaml)
        #expect(problems.contains { $0.message.contains("more than 200000 list items") })
    }
}
