import MonitorCore
import Testing

@testable import MonitorEvaluation

@Suite("Domain names")
struct DomainNameTests {
    @Test(
        "are lower-cased A-labels, with a wildcard checked at its base",
        arguments: [
            ("Example.COM", "example.com"),
            ("  example.com.  ", "example.com"),
            ("*.example.com", "example.com"),
            ("bücher.example", "xn--bcher-kva.example"),
            ("BÜCHER.example", "xn--bcher-kva.example"),
            ("xn--bcher-kva.example", "xn--bcher-kva.example"),
            ("straße.de", "xn--strae-oqa.de"),
        ])
    func normalizes(raw: String, expected: String) throws {
        #expect(try DomainName.normalize(raw) == expected)
    }

    @Test(
        "refuses what is not a host name, saying why",
        arguments: ["", "https://example.com", "example.com/path", "a..b", "-a.example", "exa mple.com", "a:443"])
    func refuses(raw: String) {
        #expect(throws: DomainNameError.self) { try DomainName.normalize(raw) }
    }
}

/// `DomainName.isNormal` lets a name through untouched: only when the full normalization would give it back as it is.
@Suite("the shortcut for names already normal")
struct DomainNameShortcutTests {
    static let names = [
        "example.com", "d0.fleet.test", "a", "a-b.c_d.e9", "Example.com", "example.com.", ".example.com", "a..b",
        "-a.example", "a-.example", "a.-b", "a.b-", "*.example.com", " example.com", "example.com ", "bücher.example",
        "xn--bcher-kva.example", "a/b", "a:1", "a@b", String(repeating: "a", count: 63) + ".test",
        String(repeating: "a", count: 64) + ".test", String(repeating: "abcdefghi.", count: 25) + "abc",
        String(repeating: "abcdefghi.", count: 25) + "abcd", "", ".", "-", "_", "a.b.c.d.e.f",
    ]

    @Test("agrees with the full normalization", arguments: names)
    func agrees(_ name: String) {
        let full = try? DomainName.normalizeFully(name)
        #expect(DomainName.isNormal(name) == (full == name), "\(name) → \(full ?? "refused")")
        #expect((try? DomainName.normalize(name)) == full)
    }
}
