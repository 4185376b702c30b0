import EndToEndSlot
import Foundation
import Monitor
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

    static func withFixtures<Result>(_ body: ([String], URL) async throws -> Result) async throws -> Result {
        let hosts = ["shop.origin.test", "login.origin.test", "staging.origin.test"]
        let headers = [("Content-Type", "application/json"), ("Cache-Control", "max-age=3600"), ("Age", "60")]
        let originRoutes = [
            FixtureRoute("/.well-known/apple-app-site-association") { request in
                .text(file(host: requestHost(request), copy: "origin"), headers: headers)
            },
            FixtureRoute("/apple-app-site-association", FixtureResponse(status: 404)),
        ]
        let cdnRoutes = hosts.map { host in
            FixtureRoute("/a/v1/\(host)", .text(file(host: host, copy: "cdn"), headers: headers))
        }
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
}
