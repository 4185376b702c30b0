import AASA
import Foundation
import MonitorCore
import MonitorEvaluation
import Testing

/// Keeps the registry and the evaluator equal: every registered code has an observation that makes the evaluator
/// report it, and every scenario names a registered code. Since findings can only be built from registry members,
/// `explain --list` (which prints `FindingCode.all`) is then exactly the set of codes the evaluator can emit, and
/// the monitor's own conditions (`monitor.*`, raised by `MonitorConditions` and tested with it).
@Suite("Finding codes the evaluator emits")
struct EvaluatorCodeCoverageTests {
    typealias F = ObservationFixtures

    /// One situation and the code it must produce.
    struct Scenario: Sendable, CustomTestStringConvertible {
        var code: FindingCode
        var observation: DomainObservation
        var expectations = Expectations()
        var staleSince: Date?

        var testDescription: String { code.id }
    }

    /// A file whose one `applinks` details entry is `entry`.
    static func entry(_ entry: String) -> FetchObservation.Outcome {
        F.json(#"{"applinks":{"details":[\#(entry)]}}"#)
    }

    /// A file whose one entry for the fixture app has these `components`.
    static func components(_ components: String) -> FetchObservation.Outcome {
        entry(#"{"appIDs":["\#(F.app)"],"components":[\#(components)]}"#)
    }

    static func scenario(
        _ code: FindingCode, _ observation: DomainObservation, expectations: Expectations = Expectations(),
        staleSince: Date? = nil
    ) -> Scenario {
        Scenario(code: code, observation: observation, expectations: expectations, staleSince: staleSince)
    }

    static let scenarios: [Scenario] =
        originScenarios + bodyScenarios + documentScenarios + cdnScenarios
        + expectationScenarios

    static let originScenarios: [Scenario] = [
        scenario(.originDNS, F.observation(wellKnown: F.failure(.dns))),
        scenario(.originConnect, F.observation(wellKnown: F.failure(.connect))),
        scenario(.originTimeout, F.observation(wellKnown: F.failure(.timeout))),
        scenario(.originTLSUntrusted, F.observation(wellKnown: F.failure(.tlsUntrusted))),
        scenario(.originTLSExpired, F.observation(wellKnown: F.failure(.tlsExpired))),
        scenario(.originTLSHostname, F.observation(wellKnown: F.failure(.tlsHostname))),
        scenario(.originTLSProtocol, F.observation(wellKnown: F.failure(.tlsProtocol))),
        scenario(.originFetch, F.observation(wellKnown: F.failure(.other))),
        scenario(
            .originTLSExpiring,
            F.observation { $0.wellKnown.certificate?.notAfter = F.now.addingTimeInterval(86_400 * 3) }),
        scenario(.originRedirect, F.observation(wellKnown: F.status(301, location: "https://www.shop.test/"))),
        scenario(.originStatus, F.observation(wellKnown: F.status(500))),
        scenario(
            .originContentType,
            F.observation(
                wellKnown: .response(
                    FetchResponse(
                        status: 200, headers: [HeaderField(name: "Content-Type", value: "text/plain")],
                        body: Array(F.document.utf8))))),
        scenario(.originBotBlocked, F.observation(wellKnown: F.status(403), plain: F.json(F.document))),
        scenario(.originRootOnly, F.observation(wellKnown: F.status(404), root: F.json(F.document))),
        scenario(.originRootDiffers, F.observation(root: F.json(F.olderDocument))),
        scenario(.originSlow, F.observation { $0.wellKnown.totalSeconds = 4.5 }),
        scenario(.originPrivateAddress, F.observation { $0.wellKnown.primaryIP = "10.1.2.3" }),
        scenario(
            .originAppleFailure,
            F.observation(
                cdn: F.status(404, headers: [HeaderField(name: "Apple-Failure-Reason", value: "SWCERR00301 Timeout")]))
        ),
    ]

    static let bodyScenarios: [Scenario] = [
        scenario(.originTooLarge, F.observation(wellKnown: F.failure(.tooLarge))),
        scenario(
            .originBOM,
            F.observation(
                wellKnown: .response(
                    FetchResponse(
                        status: 200, headers: [HeaderField(name: "Content-Type", value: "application/json")],
                        body: [0xEF, 0xBB, 0xBF] + Array(F.document.utf8))))),
        scenario(.originJSON, F.observation(wellKnown: F.json("{not json"))),
        scenario(
            .originSigned,
            F.observation(
                wellKnown: .response(
                    FetchResponse(
                        status: 200, headers: [HeaderField(name: "Content-Type", value: "application/pkcs7-mime")],
                        body: Array(Data(base64Encoded: signedBase64)!)))
            )),
    ]

    static let documentScenarios: [Scenario] = [
        scenario(.aasaNoServices, F.observation(wellKnown: F.json(#"{"applinkz":{}}"#))),
        scenario(.aasaType, F.observation(wellKnown: F.json(#"{"applinks":{"details":"all"}}"#))),
        scenario(.aasaAppIDFormat, F.observation(wellKnown: entry(#"{"appIDs":["ABC.com.x"],"components":[]}"#))),
        scenario(
            .aasaAppIDPlaceholder,
            F.observation(wellKnown: entry(#"{"appIDs":["TEAMID.com.x"],"components":[{"/":"/*"}]}"#))),
        scenario(
            .aasaAppIDNumericPrefix,
            F.observation(wellKnown: entry(#"{"appIDs":["1234567891.com.x"],"components":[{"/":"/*"}]}"#))),
        scenario(.aasaEmptyAppIDs, F.observation(wellKnown: entry(#"{"appIDs":[],"components":[{"/":"/*"}]}"#))),
        scenario(.aasaNoRules, F.observation(wellKnown: entry(#"{"appIDs":["\#(F.app)"]}"#))),
        scenario(
            .aasaMixedFormats,
            F.observation(
                wellKnown: entry(#"{"appIDs":["\#(F.app)"],"paths":["/a/*"],"components":[{"/":"/b/*"}]}"#))),
        scenario(.aasaQueryNotString, F.observation(wellKnown: components(#"{"/":"/s","?":{"page":1}}"#))),
        scenario(
            .aasaQueryInPath, F.observation(wellKnown: entry(#"{"appIDs":["\#(F.app)"],"paths":["/item?id=*"]}"#))),
        scenario(
            .aasaNotWithoutSpace,
            F.observation(wellKnown: entry(#"{"appIDs":["\#(F.app)"],"paths":["NOT/private/*","/*"]}"#))),
        scenario(.aasaUnknownKey, F.observation(wellKnown: components(#"{"/":"/*","casesensitive":false}"#))),
        scenario(
            .aasaUnreachableRule,
            F.observation(wellKnown: components(#"{"/":"/*"},{"/":"/account/*","exclude":true}"#))),
        scenario(
            .aasaExcludeMatchesAll,
            F.observation(wellKnown: components(#"{"?":{"no_link":"*"},"exclude":true},{"/":"/*"}"#))),
        scenario(.aasaUndefinedVariable, F.observation(wellKnown: components(#"{"/":"/$(nosuchvariable)/*"}"#))),
        scenario(
            .aasaLegacyApps,
            F.observation(
                wellKnown: F.json(
                    #"{"applinks":{"apps":["\#(F.app)"],"details":[{"appIDs":["\#(F.app)"],"components":[]}]}}"#))),
        scenario(
            .aasaDuplicateKey,
            F.observation(wellKnown: entry(#"{"appIDs":["\#(F.app)"],"appIDs":["\#(F.app)"],"components":[]}"#))),
    ]

    static let cdnScenarios: [Scenario] = [
        scenario(.cdnUnreachable, F.observation(cdn: F.status(503))),
        scenario(.cdnMissing, F.observation(cdn: F.status(404))),
        scenario(.cdnStale, F.observation(cdn: F.json(F.olderDocument))),
        scenario(.cdnOnly, F.observation(wellKnown: F.status(404))),
        scenario(.cdnInvalid, F.observation(cdn: F.json("<html>oops</html>"))),
    ]

    static let expectationScenarios: [Scenario] = [
        scenario(
            .expectAppMissing, F.observation(),
            expectations: Expectations(apps: [ExpectedApp(appID: "ZZZZZ99999.com.example.other")])),
        scenario(
            .expectURL, F.observation(),
            expectations: Expectations(urls: [
                ExpectedURL(url: "https://shop.test/help", appID: F.app, decision: .match)
            ])),
        scenario(
            .expectAppClaim, F.observation(),
            expectations: Expectations(claimNotes: [
                ClaimNote(
                    code: .appDeveloperModeInDistribution, isError: true,
                    message: "customers' devices ignore it", claimedBy: "Shop.ipa Payload/Shop.app/Shop: x")
            ])),
    ]

    @Test("every registered code has exactly one scenario, and every scenario's code is registered")
    func scenariosMatchRegistry() {
        // The monitor's own conditions are not the evaluator's, and the app reader raises the `app.*` codes.
        let evaluated = FindingCode.all.filter { $0.family != .monitor && $0.family != .app }
        #expect(Self.scenarios.map(\.code.id).sorted() == evaluated.map(\.id).sorted())
    }

    @Test("the evaluator reports each scenario's code", arguments: scenarios)
    func evaluatorEmits(_ scenario: Scenario) {
        let report = F.evaluate(
            scenario.observation, expectations: scenario.expectations, staleSince: scenario.staleSince)
        #expect(report.codes.contains(scenario.code.id), "got \(report.codes)")
    }

    /// A legacy PKCS7-signed file (the AASA tests' `SignedFixtures.derBase64`, generated once with OpenSSL).
    static let signedBase64 = """
        MIIC4wYJKoZIhvcNAQcCoIIC1DCCAtACAQExDTALBglghkgBZQMEAgEwcQYJKoZIhvcNAQcBoGQEYnsiYXBwbGlua3MiOnsiZGV0\
        YWlscyI6W3siYXBwSURzIjpbIkFCQ0RFMTIzNDUuY29tLmV4YW1wbGUuYXBwIl0sImNvbXBvbmVudHMiOlt7Ii8iOiIvYnV5Lyoi\
        fV19XX19oIIBnzCCAZswggFBoAMCAQICFBJ6CO9OHdTrnbyIsheFjkpuN3PjMAoGCCqGSM49BAMCMCMxITAfBgNVBAMMGGFhc2Et\
        bW9uaXRvciB0ZXN0IHNpZ25lcjAeFw0yNjExMjEyMDMxMzFaFw0yNjExMjIyMDMxMzFaMCMxITAfBgNVBAMMGGFhc2EtbW9uaXRv\
        ciB0ZXN0IHNpZ25lcjBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABIwh8KMJ79rjVWWSEnAFQtq/IBk3/mIXkJVXZ0zio5Oc8gDV\
        JgTM2yowHh+/gcOLgzDy22vlBHquRzKgXQnDE5SjUzBRMB0GA1UdDgQWBBR1uhosyvnVSHuqP6s6VN54ySIkvTAfBgNVHSMEGDAW\
        gBR1uhosyvnVSHuqP6s6VN54ySIkvTAPBgNVHRMBAf8EBTADAQH/MAoGCCqGSM49BAMCA0gAMEUCIQDt2BOiwY0qyJBRlEotNByU\
        7Svitqq/DGpz3wVtJuA/WQIgJx8FgIWWmatsvBudPEPMR0TvBf3Xc8jV68zy2HDTCoExgaUwgaICAQEwOzAjMSEwHwYDVQQDDBhh\
        YXNhLW1vbml0b3IgdGVzdCBzaWduZXICFBJ6CO9OHdTrnbyIsheFjkpuN3PjMAsGCWCGSAFlAwQCATAKBggqhkjOPQQDAgRHMEUC\
        ICbDCNuU53JqPmw8tgb9nWSlstEHQvOKGAGfal8TJrVzAiEA9wwLFZ6oLMZqWvhy/9+e/Fmq8wlSiUWKuhg15syC5kg=
        """
}
