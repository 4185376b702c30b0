import Foundation
import TestSupport
import Testing

/// Debian's `chromium` in headless mode: loads a page like a person's browser (CSS, CSP, script engine on) and
/// reports the DOM after scripts ran, a screenshot and every network request it made, from its own net log.
struct HeadlessChromium {
    /// CI (`.ci/run`) sets this, so a missing browser fails there instead of skipping.
    static let requiredVariable = "AASA_REQUIRE_CHROMIUM"

    static let binary: String? = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// Whether the browser tests run: chromium is installed, or CI requires it (and the test then fails).
    static var shouldRun: Bool {
        binary != nil || ProcessInfo.processInfo.environment[requiredVariable] == "1"
    }

    static let skipReason: Comment =
        "chromium is not installed (apt-get install chromium); CI sets AASA_REQUIRE_CHROMIUM=1 so it fails there"

    /// The page after loading, with the requests made on its behalf.
    struct Load {
        var dom: String
        /// URLs the page's own requests asked for (the document, its style sheet, anything it tried to load).
        var pageRequests: [String]
    }

    let binary: String
    let directory: String

    /// Loads `url` (window `width`×`height`), saves a screenshot to `screenshot`, returns the DOM and requests.
    func load(_ url: String, screenshot: String, width: Int = 1280, height: Int = 900) async throws -> Load {
        let netLog = directory + "/net-\(UUID().uuidString).json"
        // Everything that makes the browser talk to Google on its own is off; the net log catches the rest.
        let common = [
            "--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=\(directory)/profile", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--disable-default-apps", "--disable-extensions", "--no-pings", "--disable-domain-reliability",
            // A page with a form (the overview's filter) makes the browser ask Google's autofill server about it.
            "--disable-features=AutofillServerCommunication", "--window-size=\(width),\(height)",
        ]
        let shot = try RunningMonitor(arguments: common + ["--screenshot=\(screenshot)", url], binary: binary)
        #expect(try await shot.waitForExit(timeout: .seconds(60)) == 0, "\(shot.standardError.suffix(2000))")
        let dump = try RunningMonitor(
            arguments: common + ["--log-net-log=\(netLog)", "--dump-dom", url], binary: binary)
        let status = try await dump.waitForExit(timeout: .seconds(60))
        #expect(status == 0, "chromium --dump-dom: \(dump.standardError.suffix(2000))")
        let components = try #require(URLComponents(string: url))
        let site = "\(components.scheme ?? "http")://\(components.host ?? "")"
        return Load(dom: dump.standardOutput, pageRequests: try Self.pageRequests(netLog: netLog, site: site))
    }

    /// The URLs of requests made for a page of `site`: the net log's `URL_REQUEST_START_JOB` events whose network
    /// isolation key is that site (the browser's own background requests have `null null` or Google's site).
    static func pageRequests(netLog path: String, site: String) throws -> [String] {
        var data = try Data(contentsOf: URL(fileURLWithPath: path))
        // The browser may stop before closing the JSON (the format allows a missing "]}").
        if (try? JSONSerialization.jsonObject(with: data)) == nil {
            while let last = data.last, [UInt8(ascii: ","), UInt8(ascii: "\n"), UInt8(ascii: " ")].contains(last) {
                data.removeLast()
            }
            data += Data("]}".utf8)
        }
        let log = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let constants = try #require(log["constants"] as? [String: Any])
        let types = try #require(constants["logEventTypes"] as? [String: Int])
        let startJob = try #require(types["URL_REQUEST_START_JOB"])
        let events = try #require(log["events"] as? [[String: Any]])
        return events.compactMap { event in
            guard event["type"] as? Int == startJob, let parameters = event["params"] as? [String: Any],
                let url = parameters["url"] as? String,
                let key = parameters["network_isolation_key"] as? String, key.hasPrefix(site + " ")
            else { return nil }
            return url
        }
    }
}
