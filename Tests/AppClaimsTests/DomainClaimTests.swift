import AASA
import AppClaims
import Testing

/// `SERVICE:DOMAIN[?mode=MODE]` entries, valid and not.
@Suite("associated-domains entries")
struct DomainClaimTests {
    struct Valid: Sendable, CustomStringConvertible {
        var entry: String
        var service: AssociatedService
        var domain: String
        var readDomain: String
        var mode: ClaimMode
        var description: String { entry }
    }

    @Test(
        "valid entries parse into service, domain, where it is read, and mode",
        arguments: [
            Valid(
                entry: "applinks:shop.example.com", service: .applinks, domain: "shop.example.com",
                readDomain: "shop.example.com", mode: .standard),
            Valid(
                entry: "applinks:*.Example.com", service: .applinks, domain: "*.Example.com",
                readDomain: "example.com", mode: .standard),
            Valid(
                entry: "webcredentials:login.example.com?mode=managed", service: .webcredentials,
                domain: "login.example.com", readDomain: "login.example.com", mode: .managed),
            Valid(
                entry: "appclips:clip.example.com?mode=developer+managed", service: .appclips,
                domain: "clip.example.com", readDomain: "clip.example.com", mode: .developerManaged),
            Valid(
                entry: "activitycontinuation:example.com:8443", service: .activitycontinuation,
                domain: "example.com:8443", readDomain: "example.com:8443", mode: .standard),
        ])
    func valid(_ valid: Valid) throws {
        let (claims, findings) = AppClaimsParser.domainClaims([valid.entry], isDevelopment: true)
        let claim = try #require(claims.first)
        #expect(claim.entry == valid.entry)
        #expect(claim.service == valid.service)
        #expect(claim.domain == valid.domain)
        #expect(claim.readDomain == valid.readDomain)
        #expect(claim.isWildcard == valid.domain.hasPrefix("*."))
        #expect(claim.mode == valid.mode)
        #expect(findings.allSatisfy { $0.severity == .info })
    }

    @Test(
        "invalid entries are error findings and no claim",
        arguments: [
            ("appliinks:example.com", FindingCode.appUnknownService),
            ("example.com", .appInvalidEntry),
            ("applinks:", .appInvalidEntry),
            ("applinks:example.com?mode=staging", .appInvalidMode),
            ("applinks:example.com?foo=bar", .appInvalidEntry),
            ("applinks:*.", .appInvalidDomain),
            ("applinks:a.*.example.com", .appInvalidDomain),
        ])
    func invalid(entry: String, code: FindingCode) {
        let (claims, findings) = AppClaimsParser.domainClaims([entry], isDevelopment: false)
        #expect(claims.isEmpty)
        #expect(findings.map(\.code) == [code])
        #expect(findings.first?.severity == .error)
        #expect(findings.first?.entry == entry)
    }

    @Test("a domain with a control character is kept as claimed, with an error finding")
    func controlCharacter() throws {
        let entry = "applinks:shop\u{1b}[2J.example.com"
        let (claims, findings) = AppClaimsParser.domainClaims([entry], isDevelopment: false)
        #expect(claims.first?.domain == "shop\u{1b}[2J.example.com")
        #expect(findings.map(\.code) == [.appInvalidDomain])
    }

    @Test("a repeated entry is claimed once")
    func duplicate() {
        let (claims, _) = AppClaimsParser.domainClaims(
            ["applinks:example.com", "applinks:example.com"], isDevelopment: false)
        #expect(claims.count == 1)
    }
}
