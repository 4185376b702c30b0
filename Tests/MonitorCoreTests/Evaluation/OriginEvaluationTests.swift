import AASA
import Foundation
import MonitorCore
import MonitorEvaluation
import Testing

@Suite("Evaluation of the origin")
struct OriginEvaluationTests {
    typealias F = ObservationFixtures

    @Test("a valid file mirrored by Apple with other key order and indentation is ready, with no findings")
    func ready() {
        let report = F.evaluate(F.observation())
        #expect(report.verdict == .ready)
        #expect(report.findings.isEmpty)
        #expect(report.originHash != nil)
        #expect(report.originHash == report.cdnHash)
        #expect(report.documents.count == 1)
        #expect(report.origin.wellKnown.status == 200)
        #expect(report.cdn?.maxAge == 3600)
        #expect(report.cdn?.age == 600)
        #expect(report.cdn?.expectedRefresh == F.now.addingTimeInterval(3000))
    }

    @Test(
        "every transport failure of .well-known breaks the origin with its own code",
        arguments: [
            (FetchFailure.Kind.dns, "origin.dns"), (.connect, "origin.connect"), (.timeout, "origin.timeout"),
            (.tlsUntrusted, "origin.tls.untrusted"), (.tlsExpired, "origin.tls.expired"),
            (.tlsHostname, "origin.tls.hostname"), (.tlsProtocol, "origin.tls.protocol"),
            (.tooLarge, "origin.too_large"), (.other, "origin.fetch"),
        ])
    func transportFailures(kind: FetchFailure.Kind, code: String) throws {
        let report = F.evaluate(F.observation(wellKnown: F.failure(kind), cdn: F.status(404)))
        #expect(report.verdict == .originBroken)
        let finding = try #require(report.finding(code))
        #expect(finding.severity == .error)
        #expect(finding.source == .wellKnown)
        #expect(finding.message.contains("simulated \(kind.rawValue)"))
        #expect(report.origin.wellKnown.error == kind.rawValue)
        // The root's 404 is reported because .well-known fails: Apple has nowhere to read the file.
        #expect(report.codes.contains("origin.status"))
    }

    @Test("a redirect breaks the origin and names the absolute target")
    func redirect() throws {
        let report = F.evaluate(
            F.observation(
                wellKnown: F.status(301, location: "https://www.shop.test/.well-known/apple-app-site-association")))
        #expect(report.verdict == .originBroken)
        let finding = try #require(report.finding("origin.redirect"))
        #expect(finding.detail["status"] == .int(301))
        #expect(finding.detail["location"] == "https://www.shop.test/.well-known/apple-app-site-association")
    }

    @Test("an HTML page served with 200 is origin.json, and says it is HTML")
    func html() throws {
        let page = FetchObservation.Outcome.response(
            FetchResponse(
                status: 200, headers: [HeaderField(name: "Content-Type", value: "text/html")],
                body: Array("<!DOCTYPE html><html><body>Sign in</body></html>".utf8)))
        let report = F.evaluate(F.observation(wellKnown: page))
        #expect(report.verdict == .originBroken)
        let finding = try #require(report.finding("origin.json"))
        #expect(finding.detail["looks_like"] == "html")
        #expect(report.codes.contains("origin.content_type"))
    }

    @Test(
        "the media type is compared without parameters, case or surrounding blanks",
        arguments: [
            ("application/json", false), ("Application/JSON; charset=utf-8", false), ("\tapplication/json ;q=1", false),
            ("application/pkcs7-mime", false), ("text/html", true), ("application/jsonx", true), ("", true),
        ])
    func contentTypeComparison(contentType: String, warned: Bool) {
        let file = FetchObservation.Outcome.response(
            FetchResponse(
                status: 200, headers: [HeaderField(name: "Content-Type", value: contentType)],
                body: Array(F.document.utf8)))
        let report = F.evaluate(F.observation(wellKnown: file))
        #expect(report.codes.contains("origin.content_type") == warned)
    }

    @Test("warnings — a content type, a BOM, an expiring certificate, slowness — leave the verdict ready")
    func warningsKeepReady() throws {
        let bom = FetchObservation.Outcome.response(
            FetchResponse(
                status: 200, headers: [HeaderField(name: "Content-Type", value: "text/plain")],
                body: [0xEF, 0xBB, 0xBF] + Array(F.document.utf8)))
        let report = F.evaluate(
            F.observation(wellKnown: bom) { observation in
                observation.wellKnown.certificate?.notAfter = F.now.addingTimeInterval(86_400 * 3 + 60)
                observation.wellKnown.totalSeconds = 4.5
            })
        #expect(report.verdict == .ready)
        #expect(Set(report.codes) == ["origin.bom", "origin.content_type", "origin.tls.expiring", "origin.slow"])
        #expect(report.finding("origin.tls.expiring")?.detail["days_left"] == .int(3))
    }

    @Test("a private address breaks the origin unless connect-to sent the request there")
    func privateAddress() {
        let direct = F.evaluate(F.observation { $0.wellKnown.primaryIP = "10.1.2.3" })
        #expect(direct.codes.contains("origin.private_address"))
        #expect(direct.verdict == .originBroken)
        let mapped = F.evaluate(
            F.observation {
                $0.wellKnown.primaryIP = "127.0.0.1"
                $0.wellKnown.viaConnectTo = true
            })
        #expect(mapped.verdict == .ready)
    }

    @Test("Apple's user agent answered 403 while a plain client gets the file is origin.bot_blocked")
    func botBlocked() throws {
        let report = F.evaluate(F.observation(wellKnown: F.status(403), plain: F.json(F.document)))
        #expect(report.verdict == .originBroken)
        let finding = try #require(report.finding("origin.bot_blocked"))
        #expect(finding.detail["apple_status"] == .int(403))
        #expect(finding.detail["plain_status"] == .int(200))
        #expect(report.origin.plainStatus == 200)
    }

    @Test("Apple's user agent getting a different document than a plain client is origin.bot_blocked")
    func botGetsOtherDocument() {
        let report = F.evaluate(F.observation(wellKnown: F.json(F.document), plain: F.json(F.olderDocument)))
        #expect(report.codes.contains("origin.bot_blocked"))
    }

    @Test("a file only at the root path is origin.root_only; a root file of other meaning is origin.root_differs")
    func rootPath() {
        let rootOnly = F.evaluate(F.observation(wellKnown: F.status(404), root: F.json(F.document), cdn: F.status(404)))
        #expect(rootOnly.verdict == .originBroken)
        #expect(rootOnly.codes.contains("origin.root_only"))
        let differs = F.evaluate(F.observation(root: F.json(F.olderDocument)))
        #expect(differs.verdict == .ready)
        #expect(differs.finding("origin.root_differs")?.source == .root)
    }

    @Test("a healthy .well-known with a root that fails says nothing about the root")
    func rootFailureIgnored() {
        let report = F.evaluate(F.observation(root: F.failure(.timeout)))
        #expect(report.findings.isEmpty)
    }

    @Test("lint errors of the origin's file break the origin; warnings do not")
    func lint() {
        let badAppID = F.evaluate(
            F.observation(wellKnown: F.json(#"{"applinks":{"details":[{"appIDs":["ABC.com.x"],"paths":["*"]}]}}"#)))
        #expect(badAppID.codes.contains("aasa.appid_format"))
        #expect(badAppID.verdict == .originBroken)
    }
}
