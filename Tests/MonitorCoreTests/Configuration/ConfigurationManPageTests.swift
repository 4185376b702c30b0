import Foundation
import MonitorCore
import MonitorEvaluation
import Testing

/// `config/aasa-monitor.yml.5`, the configuration reference, documents every key the loader accepts.
///
/// The loader is the oracle: a key it cannot place is refused with "expected one of …", the full list of keys
/// allowed there, so a key added to the loader and not to the man page fails here.
@Suite("the configuration man page")
struct ConfigurationManPageTests {
    static let manPagePath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("config/aasa-monitor.yml.5")
        .path

    /// A key far from every real one, so the loader lists them all instead of suggesting the closest.
    static let stranger = "qqqqqqqqqqqqqqqqqqqq"

    /// A place a key can be: YAML with the stranger put there, and how the man page names that place's keys.
    struct Place: Sendable, CustomTestStringConvertible {
        var yaml: String
        var prefix: String

        init(_ yaml: String, _ prefix: String) {
            self.yaml = yaml
            self.prefix = prefix
        }

        var testDescription: String { yaml.trimmingCharacters(in: .newlines) }
    }

    static let places: [Place] = [
        Place("\(stranger): 1\n", ""),
        Place("endpoint: {\(stranger): 1}\n", "endpoint."),
        Place("http: {\(stranger): 1}\n", "http."),
        Place("tls: {\(stranger): 1}\n", "tls."),
        Place("cdn: {\(stranger): 1}\n", "cdn."),
        Place("alerts: {\(stranger): 1}\n", "alerts."),
        Place("webhooks: [{name: a, url: 'https://hooks.example/', \(stranger): 1}]\n", ""),
        Place("domains: [{name: example.com, \(stranger): 1}]\n", ""),
        Place("apps: [{path: Shop.ipa, \(stranger): 1}]\n", ""),
        Place("maintenance: [{start: '22:00', duration: 1h, \(stranger): 1}]\n", "maintenance."),
        Place("heartbeat: {url: 'https://hc-ping.com/x', \(stranger): 1}\n", "heartbeat."),
        Place("domains: [{name: example.com, expect: {\(stranger): 1}}]\n", "expect."),
        Place(
            "domains: [{name: example.com, expect: {urls: [{url: 'https://example.com/', "
                + "app: ABCDE12345.com.example.app, \(stranger): 1}]}}]\n", ""
        ),
    ]

    /// The names the man page sets in bold (`.B`, `.BR`) or as a `.TP` tag: where it documents keys.
    static func documentedNames() throws -> Set<String> {
        let lines = try String(contentsOfFile: manPagePath, encoding: .utf8).components(separatedBy: "\n")
        var names: Set<String> = []
        for (index, line) in lines.enumerated() {
            let isTag = index > 0 && lines[index - 1] == ".TP"
            guard isTag || line.hasPrefix(".B ") || line.hasPrefix(".BR ") else { continue }
            let words = line.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_" || $0 == ".") })
            for word in words { names.insert(String(word).trimmingCharacters(in: CharacterSet(charactersIn: "."))) }
        }
        return names
    }

    @Test("lists every key the loader accepts, at each place a key can be", arguments: places)
    func everyKeyDocumented(place: Place) throws {
        let problems = ConfigurationTestSupport.problems(place.yaml)
        let message = try #require(problems.first { $0.keyPath.hasSuffix(Self.stranger) }?.message)
        let list = try #require(message.range(of: "expected one of ").map { message[$0.upperBound...] })
        let keys = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(keys.count >= 1)
        let documented = try Self.documentedNames()
        for key in keys {
            let name = place.prefix + key
            #expect(
                documented.contains(name) || documented.contains { $0.hasPrefix(name + ".") },
                "config/aasa-monitor.yml.5 does not document '\(name)'; add a .TP entry for it")
        }
    }
}
