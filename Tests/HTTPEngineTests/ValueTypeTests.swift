import HTTPEngine
import Testing

@Suite("connect-to rules")
struct ConnectToRuleTests {
    @Test(
        "valid forms parse and print back",
        arguments: [
            "origin.test:443:127.0.0.1:8443",
            "::127.0.0.1:8443",
            "origin.test::127.0.0.1:",
            "origin.test:443:[::1]:8443",
            "origin.test:443::8443",
        ]
    )
    func parsesValid(text: String) throws {
        #expect(try ConnectToRule(parsing: text).description == text)
    }

    @Test(
        "malformed forms are rejected with a reason",
        arguments: [
            ("origin.test:443:127.0.0.1", "4 fields"),
            ("origin.test:https:127.0.0.1:8443", "PORT 'https'"),
            ("origin.test:443:127.0.0.1:70000", "between 1 and 65535"),
            ("origin.test:443::", "both empty"),
            ("origin.test:443:[::1:8443", "unterminated"),
            ("bad host:443:127.0.0.1:8443", "HOST 'bad host'"),
        ]
    )
    func rejectsMalformed(text: String, reason: String) {
        let error = #expect(throws: ConnectToRuleError.self) { try ConnectToRule(parsing: text) }
        #expect(error?.description.contains(reason) == true, "\(String(describing: error))")
        #expect(error?.description.contains(text) == true)
    }

    @Test("the wildcard matches any host and port; a specific rule only its own")
    func matching() throws {
        let wildcard = try ConnectToRule(parsing: "::127.0.0.1:8443")
        let specific = try ConnectToRule(parsing: "Origin.Test:443:127.0.0.1:8443")
        #expect(wildcard.matches(host: "anything.example", port: 8080))
        #expect(specific.matches(host: "origin.test", port: 443))
        #expect(!specific.matches(host: "origin.test", port: 8443))
        #expect(!specific.matches(host: "other.test", port: 443))
        #expect(ConnectToRule.firstMatch(in: [specific, wildcard], host: "x.test", port: 443) == wildcard)
    }
}

@Suite("HTTP headers")
struct HTTPHeadersTests {
    @Test("lookup ignores case and keeps every value in order")
    func caseInsensitiveMultiValued() {
        var headers: HTTPHeaders = ["Vary": "Accept"]
        headers.append("vary", "User-Agent")
        headers.append("Content-Type", "application/json")
        #expect(headers["VARY"] == ["Accept", "User-Agent"])
        #expect(headers.first("content-type") == "application/json")
        #expect(headers["missing"].isEmpty)
        headers.remove("VARY")
        #expect(headers.count == 1)
    }
}

@Suite("Failure identifiers")
struct FailureIdentifierTests {
    @Test("every class has a stable identifier")
    func identifiers() {
        #expect(
            HTTPFailure.Kind.allCases.map(\.rawValue) == [
                "dns", "connect", "timeout", "tls.untrusted", "tls.expired", "tls.hostname", "tls.protocol",
                "too_large", "other",
            ])
    }
}
