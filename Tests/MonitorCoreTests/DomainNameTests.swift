import MonitorCore
import MonitorEvaluation
import Testing

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
