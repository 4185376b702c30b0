import EndToEndSlot
import Foundation
import MonitorDaemon
import TestSupport
import Testing

/// `check --app` with the real binary: the gate reads the build's claims and checks every claimed domain once,
/// on the origin and Apple's copy, against fixture origins and a fake CDN.
@Suite("check --app", .timeLimit(.minutes(10)), .endToEndSlot)
struct CheckAppTests {
    /// A real-looking Team ID: the linter calls `ABCDE12345` a placeholder, and the origin's file would be broken.
    static let team = "9JA89QQLNQ"
    static let shop = "\(team).com.example.shop"
    static let clip = "\(team).com.example.shop.Clip"
    static let credentials = "\(team).com.example.shop.Credentials"

    /// shop.origin.test lists all three apps on the origin; Apple's copy does not list the App Clip yet.
    /// login.origin.test lists the credentials extension of another team. staging.origin.test lists the shop.
    static func file(host: String, copy: String) -> String {
        switch host {
        case "shop.origin.test":
            let clips = copy == "origin" ? #","appclips":{"apps":["\#(clip)"]}"# : ""
            return #"{"applinks":{"details":[{"appIDs":["\#(shop)"],"components":[{"/":"/*"}]}]},"#
                + #""webcredentials":{"apps":["\#(shop)"]}\#(clips)}"#
        case "login.origin.test":
            return #"{"webcredentials":{"apps":["QQQQQ99999.com.example.shop.Credentials"]}}"#
        default:
            return #"{"applinks":{"details":[{"appIDs":["\#(shop)"],"components":[{"/":"/*"}]}]}}"#
        }
    }

    /// The shop's build: the main app claims the shop (applinks, webcredentials) and staging in developer mode,
    /// its App Clip the shop (appclips), its credentials extension login.
    static func build(development: Bool = false, withLogin: Bool = true, simulator: Bool = false) -> AppFixture.Bundle {
        func binary(_ bundleID: String, _ domains: [String]) -> [UInt8] {
            let entitlements = AppFixture.entitlements(
                bundleID: bundleID, domains: domains, development: development, team: team)
            // A simulator build keeps its entitlements in __TEXT,__entitlements, not in a signature.
            return MachOFixture.thin(
                simulator
                    ? MachOFixture.Slice(cpuType: 0x0100_0007, simulatorEntitlements: MachOFixture.xml(entitlements))
                    : .device(entitlements))
        }
        let main = binary(
            "com.example.shop",
            [
                "applinks:shop.origin.test", "webcredentials:shop.origin.test",
                "applinks:staging.origin.test?mode=developer",
            ])
        return AppFixture.Bundle(
            name: "Shop.app", bundleID: "com.example.shop", executable: main,
            appClips: [
                AppFixture.Bundle(
                    name: "ShopClip.app", bundleID: "com.example.shop.Clip",
                    executable: binary("com.example.shop.Clip", ["appclips:shop.origin.test"]))
            ],
            plugIns: withLogin
                ? [
                    AppFixture.Bundle(
                        name: "Credentials.appex", bundleID: "com.example.shop.Credentials",
                        executable: binary("com.example.shop.Credentials", ["webcredentials:login.origin.test"]))
                ] : [])
    }

    /// A domain every build below claims only with `?mode=developer`; the origin lists the shop.
    static let developerOnly = "dev.origin.test"

    static func withFixtures<Result>(_ body: ([String], URL) async throws -> Result) async throws -> Result {
        let hosts = ["shop.origin.test", "login.origin.test", "staging.origin.test"]
        let headers = [("Content-Type", "application/json"), ("Cache-Control", "max-age=3600"), ("Age", "60")]
        let originRoutes = [
            FixtureRoute("/.well-known/apple-app-site-association") { request in
                .text(file(host: requestHost(request), copy: "origin"), headers: headers)
            },
            FixtureRoute("/apple-app-site-association", FixtureResponse(status: 404)),
        ]
        // Apple's CDN has no copy of dev.origin.test, and blames the origin as a firewall would: devices of a
        // `?mode=developer` claim never ask it.
        let appleMiss = FixtureRoute(
            "/a/v1/\(developerOnly)",
            .text("", status: 404, headers: [("Apple-Failure-Reason", "SWCERR00101 Bad HTTP Response: 403 Forbidden")]))
        let cdnRoutes =
            hosts.map { host in
                FixtureRoute("/a/v1/\(host)", .text(file(host: host, copy: "cdn"), headers: headers))
            } + [appleMiss]
        return try await withFixtureServer(certificate: .valid(for: "*.origin.test"), routes: originRoutes) { origin in
            try await withFixtureServer(certificate: .valid(for: "cdn.test"), routes: cdnRoutes) { cdn in
                let bundle = try writeCABundle([origin, cdn], tag: "check-app")
                defer { try? FileManager.default.removeItem(atPath: bundle) }
                // 30 s: every fixture here answers at once, and none may turn `unknown` on a loaded machine.
                let options =
                    ["--cdn-base", "https://cdn.test/a/v1/", "--ca-file", bundle, "--timeout", "30s"]
                    + ["--connect-to", cdn.connectTo("cdn.test"), "--connect-to", origin.wildcardConnectTo]
                return try await AppFixture.withTemporaryDirectory { directory in
                    try await body(options, directory)
                }
            }
        }
    }

    static func domains(_ output: String) throws -> [String: [String: Any]] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        let domains = try #require(object["domains"] as? [[String: Any]])
        var byName: [String: [String: Any]] = [:]
        for domain in domains { byName[try #require(domain["domain"] as? String)] = domain }
        #expect(byName.count == domains.count, "every claimed domain once")
        return byName
    }

    static func messages(_ domain: [String: Any]?) -> [String] {
        (domain?["findings"] as? [[String: Any]] ?? []).compactMap { $0["message"] as? String }
    }

    @Test(
        "Shop.ipa, .xcarchive, .app, a fat binary and a simulator build: every claimed domain once, each claim judged on both copies"
    )
    func everyForm() async throws {
        try await Self.withFixtures { options, directory in
            let build = Self.build()
            let fat = AppFixture.Bundle(
                name: "Fat.app", bundleID: "com.example.shop",
                executable: MachOFixture.fat(
                    [build.executable, build.executable], cpuTypes: [0x0100_000c, 0x0100_0007]),
                appClips: build.appClips, plugIns: build.plugIns)
            let forms = [
                try AppFixture.ipa(build, in: directory),
                try AppFixture.xcarchive(build, in: directory.appendingPathComponent("archive")),
                try AppFixture.appFolder(build, in: directory.appendingPathComponent("folder")),
                try AppFixture.ipa(fat, named: "Fat.ipa", in: directory),
                try AppFixture.appFolder(
                    Self.build(simulator: true), in: directory.appendingPathComponent("simulator")),
            ]
            for form in forms {
                let run = try await MonitorBinary.run(["check", "--app", form, "--json"] + options)
                #expect(run.status == 4, "\(form): \(run.error)")
                let domains = try Self.domains(run.output)
                #expect(
                    Set(domains.keys) == ["shop.origin.test", "login.origin.test", "staging.origin.test"], "\(form)")
                // The origin lists the App Clip; Apple's copy does not yet: wait, do not fix.
                #expect(domains["shop.origin.test"]?["verdict"] as? String == "cdn_stale", "\(form)")
                #expect(
                    Self.messages(domains["shop.origin.test"]).contains {
                        $0.contains("\(Self.clip) is not yet listed in appclips")
                    })
                let login = Self.messages(domains["login.origin.test"])
                #expect(domains["login.origin.test"]?["verdict"] as? String == "expectation_failed")
                #expect(
                    login.contains {
                        $0.contains("\(Self.credentials) is not listed in webcredentials on the origin copy")
                    })
                #expect(
                    login.contains {
                        $0.contains("team QQQQQ99999 only") && $0.contains("did the app move to another team?")
                    })
                #expect(
                    login.contains { $0.contains("Credentials.appex/Credentials: webcredentials:login.origin.test") })
                // ?mode=developer in a distribution build: customers' devices ignore the entry.
                let staging = domains["staging.origin.test"]
                #expect(staging?["verdict"] as? String == "expectation_failed", "\(form)")
                let claim = (staging?["findings"] as? [[String: Any]])?.first {
                    $0["code"] as? String == "expect.app_claim"
                }
                #expect(claim?["severity"] as? String == "error")
                #expect((claim?["message"] as? String)?.contains("applinks:staging.origin.test?mode=developer") == true)
            }
        }
    }

    @Test("a development build: ?mode=developer is information; without the foreign login the gate waits (3)")
    func developmentBuild() async throws {
        try await Self.withFixtures { options, directory in
            let ipa = try AppFixture.ipa(Self.build(development: true, withLogin: false), in: directory)
            let run = try await MonitorBinary.run(["check", "--app", ipa, "--json"] + options)
            #expect(run.status == 3, "\(run.output)\(run.error)")
            let domains = try Self.domains(run.output)
            #expect(Set(domains.keys) == ["shop.origin.test", "staging.origin.test"])
            #expect(domains["staging.origin.test"]?["verdict"] as? String == "ready", "\(run.output)")
        }
    }

    @Test("an .entitlements file needs --app-id; with it, its claims are checked as the app's")
    func entitlementsFile() async throws {
        try await Self.withFixtures { options, directory in
            let path = directory.appendingPathComponent("Shop.entitlements")
            let entitlements: [String: Any] = [
                "com.apple.developer.associated-domains": [
                    "applinks:shop.origin.test", "webcredentials:login.origin.test",
                ]
            ]
            try Data(MachOFixture.plist(entitlements, format: .xml)).write(to: path)
            let missing = try await MonitorBinary.run(["check", "--app", path.path] + options)
            #expect(missing.status == 2)
            #expect(missing.error.contains("give --app-id"))
            let run = try await MonitorBinary.run(
                ["check", "--app", path.path, "--app-id", Self.shop, "--json"] + options)
            #expect(run.status == 4, "\(run.error)")
            let domains = try Self.domains(run.output)
            // The shop lists the app on both copies (Apple's only lacks the App Clip, not claimed here).
            #expect(domains["shop.origin.test"]?["verdict"] as? String == "cdn_stale")
            #expect(!Self.messages(domains["shop.origin.test"]).contains { $0.contains(Self.shop) })
            #expect(domains["login.origin.test"]?["verdict"] as? String == "expectation_failed")
        }
    }

    /// A build whose main app claims `developerOnly` with `?mode=developer` only.
    static func developerBuild(development: Bool) -> AppFixture.Bundle {
        let entitlements = AppFixture.entitlements(
            bundleID: "com.example.shop", domains: ["applinks:\(developerOnly)?mode=developer"],
            development: development, team: team)
        return AppFixture.Bundle(
            name: "Shop.app", bundleID: "com.example.shop", executable: MachOFixture.thin(.device(entitlements)))
    }

    static func findings(_ domain: [String: Any]?) -> [[String: Any]] {
        domain?["findings"] as? [[String: Any]] ?? []
    }

    @Test("a domain claimed only with ?mode=developer is judged on the origin: Apple's miss is information")
    func developerOnlyDomain() async throws {
        try await Self.withFixtures { options, directory in
            // A distribution build: customers' devices ignore the claim. That is the error, said first; exit 4.
            let release = try AppFixture.ipa(
                Self.developerBuild(development: false), named: "Release.ipa", in: directory)
            let run = try await MonitorBinary.run(["check", "--app", release, "--json"] + options)
            #expect(run.status == 4, "\(run.output)\(run.error)")
            let domain = try Self.domains(run.output)[Self.developerOnly]
            #expect(domain?["verdict"] as? String == "expectation_failed", "\(run.output)")
            let findings = Self.findings(domain)
            #expect(findings.first?["code"] as? String == "expect.app_claim", "\(findings)")
            #expect(findings.first?["severity"] as? String == "error")
            #expect(!findings.contains { $0["code"] as? String == "origin.apple_failure" }, "\(findings)")
            let missing = findings.first { $0["code"] as? String == "cdn.missing" }
            #expect(missing == nil || missing?["severity"] as? String == "info", "\(findings)")
            #expect(
                !findings.contains { ($0["severity"] as? String) != "info" && ($0["source"] as? String) == "cdn" })
            let text = try await MonitorBinary.run(["check", "--app", release] + options)
            #expect(text.status == 4)
            let lines = text.output.split(separator: "\n").map(String.init)
            #expect(lines.first?.hasPrefix("\(Self.developerOnly): expectation_failed") == true, "\(text.output)")
            let firstFinding = lines.first { $0.hasPrefix("    ") }
            #expect(firstFinding?.contains("error   expect.app_claim") == true, "\(text.output)")
            #expect(!text.output.contains("firewall"), "\(text.output)")

            // A development build: nothing is wrong; the origin lists the app.
            let debug = try AppFixture.ipa(Self.developerBuild(development: true), named: "Debug.ipa", in: directory)
            let passing = try await MonitorBinary.run(["check", "--app", debug, "--json"] + options)
            #expect(passing.status == 0, "\(passing.output)\(passing.error)")
            let ready = try Self.domains(passing.output)[Self.developerOnly]
            #expect(ready?["verdict"] as? String == "ready", "\(passing.output)")
            #expect(!Self.findings(ready).contains { ($0["severity"] as? String) != "info" }, "\(passing.output)")
            #expect(ready?["origin_only"] as? Bool == true)
            let readyText = try await MonitorBinary.run(["check", "--app", debug] + options)
            #expect(
                readyText.output.hasPrefix(
                    "\(Self.developerOnly): ready — the origin is valid; every claim of this domain reads it there "
                        + "directly, not through Apple's CDN"), "\(readyText.output)")

            // Named on the command line, the domain is judged for every device: Apple's copy counts again.
            let named = try await MonitorBinary.run(["check", Self.developerOnly, "--app", debug] + options)
            #expect(named.status == 1, "\(named.output)")
        }
    }

    @Test("check --app lists every claim it judged and whether it held, in text and JSON")
    func listsClaims() async throws {
        try await Self.withFixtures { options, directory in
            let ipa = try AppFixture.ipa(Self.build(development: true, withLogin: false), in: directory)
            let run = try await MonitorBinary.run(["check", "--app", ipa, "--json"] + options)
            #expect(run.status == 3, "\(run.output)\(run.error)")
            let domains = try Self.domains(run.output)
            let shop = try #require(domains["shop.origin.test"]?["claims"] as? [[String: Any]], "\(run.output)")
            func claim(_ service: String, _ app: String, in claims: [[String: Any]]) -> [String: Any]? {
                claims.first { $0["service"] as? String == service && $0["app_id"] as? String == app }
            }
            let applinks = claim("applinks", Self.shop, in: shop)
            #expect(applinks?["held"] as? Bool == true, "\(shop)")
            #expect(applinks?["origin"] as? Bool == true)
            #expect(applinks?["cdn"] as? Bool == true)
            #expect(
                applinks?["claimed_by"] as? String == "Shop.ipa Payload/Shop.app/Shop: applinks:shop.origin.test",
                "\(shop)")
            #expect(claim("webcredentials", Self.shop, in: shop)?["held"] as? Bool == true)
            // The App Clip is listed on the origin, not yet on Apple's copy: not held.
            let clip = claim("appclips", Self.clip, in: shop)
            #expect(clip?["held"] as? Bool == false, "\(shop)")
            #expect(clip?["origin"] as? Bool == true)
            #expect(clip?["cdn"] as? Bool == false)
            // A developer-mode claim reads the origin only.
            let staging = try #require(domains["staging.origin.test"]?["claims"] as? [[String: Any]])
            let developer = claim("applinks", Self.shop, in: staging)
            #expect(developer?["held"] as? Bool == true, "\(staging)")
            #expect(developer?["origin_only"] as? Bool == true)
            #expect(developer?.keys.contains("cdn") == true && developer?["cdn"] is NSNull)

            let text = try await MonitorBinary.run(["check", "--app", ipa] + options)
            #expect(text.status == 3)
            #expect(
                text.output.contains(
                    "    held      applinks \(Self.shop) on the origin and Apple's copy (Shop.ipa Payload/Shop.app/Shop: "
                        + "applinks:shop.origin.test)"), "\(text.output)")
            #expect(
                text.output.contains(
                    "    not held  appclips \(Self.clip): listed on the origin, not on Apple's copy"), "\(text.output)")
            #expect(text.output.contains("  claims: 2 of 3 held"), "\(text.output)")
        }
    }
}
