import Testing
import Yams

@testable import MonitorEvaluation

/// `ConfigurationReader.tagName` answers unquoted scalars that start with a letter itself (Yams' regular
/// expressions were 28% of `status` at 100,000 domains): it must say what Yams' default resolver says.
@Suite("a configuration scalar's type is Yams' own")
struct ScalarTagTests {
    static let texts = [
        "example.com", "d0.fleet.test", "yes", "Yes", "YES", "no", "No", "NO", "true", "True", "TRUE", "false",
        "False", "FALSE", "on", "On", "ON", "off", "Off", "OFF", "null", "Null", "NULL", "y", "n", "Y", "N", "tRUE",
        "nULL", "yes.example", "onion", "offline", "nil", "Inf", "NaN", "e5", "E5", "x0", "b1", "o7", "Z", "ja",
        "12", "0x1F", "1.5", ".inf", ".NaN", "~", "", "<<", "=", "2026-11-28", "-1", "+3", "1:20", "_x",
    ]

    @Test("plain, quoted and tagged scalars", arguments: texts)
    func sameAsYams(_ text: String) throws {
        for yaml in ["value: \(text)", "value: '\(text)'", "value: !!str \(text)"] {
            let root = try #require(try Yams.compose(yaml: yaml))
            let node = try #require(root["value"])
            // Compared with a fresh parse: reading `.tag` resolves and caches it.
            let fresh = try #require(try Yams.compose(yaml: yaml)?["value"])
            #expect(ConfigurationReader.tagName(node) == Tag.Name(rawValue: fresh.tag.rawValue), "\(yaml)")
        }
    }
}
