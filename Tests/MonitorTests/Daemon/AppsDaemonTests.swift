import EndToEndSlot
import Foundation
import MonitorDaemon
import MonitorStore
import Synchronization
import TestSupport
import Testing

/// The real daemon with `apps:` and no `domains` (issue 22, item 4): it watches every domain the build claims,
/// `status` says which app a failed expectation comes from, and a reload reads the app again, keeping the
/// running configuration when the app has become unreadable.
@Suite("daemon with apps:", .serialized, .timeLimit(.minutes(10)), .endToEndSlot)
struct AppsDaemonTests {
    static let team = "9JA89QQLNQ"

    /// A build whose main app claims `main` (applinks), whose App Clip claims shop.origin.test (appclips) and whose
    /// credentials extension claims login.origin.test (webcredentials). The fixture's file lists the main app in
    /// applinks only.
    static func build(main: [String]) -> AppFixture.Bundle {
        func binary(_ bundleID: String, _ domains: [String]) -> [UInt8] {
            MachOFixture.thin(.device(AppFixture.entitlements(bundleID: bundleID, domains: domains, team: team)))
        }
        return AppFixture.Bundle(
            name: "Shop.app", bundleID: "com.example.shop", executable: binary("com.example.shop", main),
            appClips: [
                AppFixture.Bundle(
                    name: "ShopClip.app", bundleID: "com.example.shop.Clip",
                    executable: binary("com.example.shop.Clip", ["appclips:shop.origin.test"]))
            ],
            plugIns: [
                AppFixture.Bundle(
                    name: "Credentials.appex", bundleID: "com.example.shop.Credentials",
                    executable: binary("com.example.shop.Credentials", ["webcredentials:login.origin.test"]))
            ])
    }

    static func checked(_ fixture: DaemonFixture, _ domain: String) async throws -> Bool {
        let reader = try StoreReader.openReadOnly(directory: fixture.stateDirectory)
        return try await !reader.runs(domain: domain, limit: 1).isEmpty
    }

    @Test("apps: [{path: Shop.ipa}] and no domains: every claimed domain is checked; reloads read the app again")
    func watchesClaimedDomains() async throws {
        let fixture = try DaemonFixture()
        let claimed = ["shop.origin.test", "login.origin.test"]
        let added = "second.origin.test"
        let directory = URL(fileURLWithPath: fixture.directory)
        try await fixture.withServers(domains: claimed + [added]) { origin, cdn, _, ca in
            let ipa = try AppFixture.ipa(Self.build(main: ["applinks:shop.origin.test"]), in: directory)
            try fixture.writeConfiguration(
                domains: [], origin: origin, cdn: cdn, caFile: ca, extra: "apps:\n  - path: Shop.ipa\n")
            let daemon = try fixture.startDaemon()
            try await eventually("every claimed domain checked", log: daemon) {
                for domain in claimed where try await !Self.checked(fixture, domain) { return false }
                return true
            }
            let status = try await MonitorBinary.run(["status", "--json", "--config", fixture.configPath])
            #expect(status.status == 0, "\(status.error)")
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(status.output.utf8)) as? [String: Any])
            let domains = try #require(object["domains"] as? [[String: Any]])
            #expect(Set(domains.compactMap { $0["domain"] as? String }) == Set(claimed))
            // The file lists the main app in applinks only: the App Clip's claim fails, naming where it comes from.
            let shop = try #require(domains.first { $0["domain"] as? String == "shop.origin.test" })
            let messages = (shop["findings"] as? [[String: Any]] ?? []).compactMap { $0["message"] as? String }
            #expect(
                messages.contains {
                    $0.contains("\(Self.team).com.example.shop.Clip is not listed in appclips")
                        && $0.contains("claimed by Shop.ipa Payload/Shop.app/AppClips/ShopClip.app")
                }, "\(messages)")
            let text = try await MonitorBinary.run(["status", "shop.origin.test", "--config", fixture.configPath])
            #expect(text.output.contains("claimed by Shop.ipa"), "\(text.output)")

            // An app replaced by a broken file: the reload is refused at apps[0].path, the old configuration runs.
            let bytes = try Data(contentsOf: URL(fileURLWithPath: ipa))
            try bytes.prefix(100).write(to: URL(fileURLWithPath: ipa))
            daemon.send(SIGHUP)
            try await daemon.waitForLog("configuration not reloaded")
            #expect(daemon.standardError.contains("apps[0].path"), "\(daemon.standardError)")
            let reader = try StoreReader.openReadOnly(directory: fixture.stateDirectory)
            let before = try await reader.runs(domain: "login.origin.test", limit: 100).reduce(0) { $0 + $1.checks }
            try await eventually("checks go on with the old configuration", log: daemon) {
                try await reader.runs(domain: "login.origin.test", limit: 100).reduce(0) { $0 + $1.checks }
                    >= before + 2
            }

            // A new build claiming another domain: the reload reads it.
            try FileManager.default.removeItem(atPath: ipa)
            _ = try AppFixture.ipa(
                Self.build(main: ["applinks:shop.origin.test", "applinks:\(added)"]), in: directory)
            daemon.send(SIGHUP)
            try await daemon.waitForLog("configuration reloaded")
            try await eventually("the newly claimed domain checked", log: daemon) {
                try await Self.checked(fixture, added)
            }
            daemon.send(SIGTERM)
            #expect(try await daemon.waitForExit() == 0)
        }
    }

    /// A build whose main app claims `domain` with `?mode=developer` only.
    static func developerBuild(_ domain: String, development: Bool) -> AppFixture.Bundle {
        let entitlements = AppFixture.entitlements(
            bundleID: "com.example.shop", domains: ["applinks:\(domain)?mode=developer"], development: development,
            team: team)
        return AppFixture.Bundle(
            name: "Shop.app", bundleID: "com.example.shop", executable: MachOFixture.thin(.device(entitlements)))
    }

    @Test(
        "a domain claimed only with ?mode=developer is judged on the origin, as check --app judges it; status names the apps"
    )
    func developerOnlyDomains() async throws {
        let fixture = try DaemonFixture()
        // Apple's CDN has no copy of either domain and blames the origin as a firewall would.
        fixture.cdn.withLock {
            $0 = (404, "", [("Apple-Failure-Reason", "SWCERR00101 Bad HTTP Response: 403 Forbidden")])
        }
        let debug = "debug.origin.test"
        let release = "release.origin.test"
        let directory = URL(fileURLWithPath: fixture.directory)
        try await fixture.withServers(domains: [debug, release]) { origin, cdn, receiver, ca in
            try AppFixture.ipa(Self.developerBuild(debug, development: true), named: "Debug.ipa", in: directory)
            try AppFixture.ipa(Self.developerBuild(release, development: false), named: "Release.ipa", in: directory)
            try fixture.writeConfiguration(
                domains: [], origin: origin, cdn: cdn, caFile: ca,
                extra: "apps:\n  - path: Debug.ipa\n  - path: Release.ipa\n"
                    + "alerts: { failure_threshold: 1, success_threshold: 1, repeat_after: 0 }\n"
                    + fixture.webhooksSection(receiver: receiver, caFile: ca, formats: ["slack"]))
            let daemon = try fixture.startDaemon()
            try await eventually("the release build's chat message", log: daemon) {
                receiver.distinctBodies(to: "/slack").contains { $0.contains(release) }
            }
            try await eventually("both domains checked twice", log: daemon) {
                let debugChecks = try await DaemonTests.checks(fixture, domain: debug).count
                let releaseChecks = try await DaemonTests.checks(fixture, domain: release).count
                return debugChecks >= 2 && releaseChecks >= 2
            }
            daemon.send(SIGTERM)
            #expect(try await daemon.waitForExit() == 0)

            // The release build's own error heads the message; Apple's miss blames nothing.
            let chat = receiver.distinctBodies(to: "/slack")
            #expect(chat.count == 1, "\(chat)")
            let message = try JSONSerialization.jsonObject(with: Data((chat.first ?? "").utf8)) as? [String: Any]
            let headline = ((message?["blocks"] as? [[String: Any]])?.first?["text"] as? [String: Any])?["text"]
            #expect((headline as? String)?.contains("\(release): expect.app_claim") == true, "\(chat)")
            #expect(!(chat.first ?? "").contains("firewall"), "\(chat)")
            #expect(try await DaemonTests.checks(fixture, domain: release).last?.verdict == "expectation_failed")
            #expect(try await DaemonTests.checks(fixture, domain: debug).last?.verdict == "ready")

            // A passing domain names the apps whose claims it is checked for.
            let status = try await MonitorBinary.run(["status", debug, "--json", "--config", fixture.configPath])
            #expect(status.status == 0, "\(status.error)")
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(status.output.utf8)) as? [String: Any])
            let domain = try #require((object["domains"] as? [[String: Any]])?.first)
            #expect(domain["verdict"] as? String == "ready", "\(status.output)")
            let apps = try #require(domain["apps"] as? [[String: Any]], "\(status.output)")
            #expect(apps.compactMap { $0["app_id"] as? String } == ["\(Self.team).com.example.shop"], "\(apps)")
            #expect(apps.first?["services"] as? [String] == ["applinks"])
            #expect(
                apps.first?["claimed_by"] as? [String]
                    == ["Debug.ipa Payload/Shop.app/Shop: applinks:\(debug)?mode=developer"], "\(apps)")
            let text = try await MonitorBinary.run(["status", debug, "--config", fixture.configPath])
            #expect(
                text.output.contains("  checked for the claims of \(Self.team).com.example.shop (applinks)"),
                "\(text.output)")
        }
    }
}
