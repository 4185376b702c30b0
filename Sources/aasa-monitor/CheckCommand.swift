import AASA
import ArgumentParser
import Foundation
import HTTPEngine
import Monitor

/// `aasa-monitor check DOMAIN...`: will universal links work for these domains, on Apple's copy, right now?
struct CheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Probe domains' origins and Apple's CDN now; the exit code gates a release.",
        discussion: """
            Exit codes: 0 every domain ready; 1 an origin is broken; 3 origins fine but Apple's CDN does not yet \
            serve their content (stale, missing) or could not be asked; 4 an expectation failed; 2 usage error.
            """
    )

    @Argument(help: "Domains to check (IDNs are converted to Punycode; *.example.com is checked at example.com).")
    var domains: [String] = []

    @Option(name: .customLong("expect-app"), help: "An app ID that must be listed (SERVICE:APPID for another service).")
    var expectedApps: [String] = []

    @Option(name: .customLong("expect-url"), help: "URL=APPID: the URL must open the app (split at the last '=').")
    var expectedURLs: [String] = []

    @Option(name: .customLong("expect-no-url"), help: "URL=APPID: the URL must not open the app.")
    var unexpectedURLs: [String] = []

    @Option(name: .customLong("cdn-base"), help: "Base URL of Apple's CDN (the domain is appended).")
    var cdnBase: String = ProbeSettings.defaultCDNBaseURL

    @Option(name: .customLong("ca-file"), help: "A PEM file of extra trust anchors, for tests and staging.")
    var caFile: String?

    @Option(name: .customLong("connect-to"), help: "HOST:PORT:ADDR:PORT, as curl's option (also ::ADDR:PORT).")
    var connectTo: [String] = []

    @Option(help: "Seconds to wait for each answer.")
    var timeout: Double = 10

    @Option(help: "The most domains probed at once.")
    var concurrency: Int = 32

    @Option(name: .customLong("stale-after"), help: "Seconds after which a stale CDN copy is an error.")
    var staleAfter: Double = 86_400

    @Option(name: .customLong("expiry-warning"), help: "Days before certificate expiry to warn.")
    var expiryWarningDays: Double = 14

    @Flag(help: "Print one JSON document instead of the report.")
    var json = false

    func run() async throws {
        let settings = try probeSettings()
        let targets = try checkTargets()
        let evaluation = EvaluationSettings(expiryWarning: expiryWarningDays * 86_400, staleAfter: staleAfter)
        signal(SIGPIPE, SIG_IGN)
        let reports = try await CheckRunner.run(targets, probe: settings, evaluation: evaluation)
        if json {
            try JSONOutput.print(CheckOutput(domains: reports))
        } else {
            print(ReportText.render(reports), terminator: "")
        }
        let code = Verdict.exitCode(for: reports.map(\.verdict))
        if code != 0 { throw CommandFailure(message: "", exitCode: code) }
    }

    private func checkTargets() throws -> [CheckRunner.Target] {
        guard !domains.isEmpty else { throw CommandFailure.usage("give at least one domain to check") }
        var normalized: [String] = []
        for domain in domains {
            do {
                normalized.append(try DomainName.normalize(domain))
            } catch {
                throw CommandFailure.usage(error.description)
            }
        }
        do {
            let expectations = try ExpectationArguments.assign(
                apps: expectedApps, urls: expectedURLs, noURLs: unexpectedURLs, domains: normalized)
            return normalized.map { CheckRunner.Target(domain: $0, expectations: expectations[$0] ?? Expectations()) }
        } catch {
            throw CommandFailure.usage(error.description)
        }
    }

    private func probeSettings() throws -> ProbeSettings {
        guard timeout > 0, timeout <= 600 else {
            throw CommandFailure.usage("--timeout must be between 0 and 600 seconds")
        }
        guard (1...1024).contains(concurrency) else { throw CommandFailure.usage("--concurrency must be 1…1024") }
        guard staleAfter >= 0, expiryWarningDays >= 0 else {
            throw CommandFailure.usage("--stale-after and --expiry-warning must not be negative")
        }
        guard cdnBase.lowercased().hasPrefix("https://") || cdnBase.lowercased().hasPrefix("http://") else {
            throw CommandFailure.usage("--cdn-base \(cdnBase): expected an http(s) URL")
        }
        var rules: [ConnectToRule] = []
        for text in connectTo {
            do {
                rules.append(try ConnectToRule(parsing: text))
            } catch {
                throw CommandFailure.usage("--connect-to \(text): \(error)")
            }
        }
        var trust = TrustConfiguration.system
        if let caFile {
            guard FileManager.default.isReadableFile(atPath: caFile) else {
                throw CommandFailure.usage("--ca-file \(caFile): cannot read the file")
            }
            trust = .systemAnd(extraCAFile: caFile)
        }
        return ProbeSettings(
            version: AASAMonitorVersion.current, cdnBaseURL: cdnBase, timeout: .milliseconds(Int(timeout * 1000)),
            connectTo: rules, trust: trust, concurrency: concurrency)
    }
}
