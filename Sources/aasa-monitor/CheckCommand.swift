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
            With --config FILE, the file's domains (when none are named), their expectations and its http, tls and \
            cdn settings apply; options given on the command line win. Exit codes: 0 every domain ready; 1 an \
            origin is broken; 3 origins fine but Apple's CDN does not yet serve their content (stale, missing) or \
            could not be asked; 4 an expectation failed; 2 usage or configuration error.
            """
    )

    @Argument(help: "Domains to check (IDNs are converted to Punycode; *.example.com is checked at example.com).")
    var domains: [String] = []

    @Option(
        name: .customLong("config"),
        help: "A configuration file whose domains, expectations and http/tls/cdn settings to use.")
    var configPath: String?

    @Option(name: .customLong("expect-app"), help: "An app ID that must be listed (SERVICE:APPID for another service).")
    var expectedApps: [String] = []

    @Option(name: .customLong("expect-url"), help: "URL=APPID: the URL must open the app (split at the last '=').")
    var expectedURLs: [String] = []

    @Option(name: .customLong("expect-no-url"), help: "URL=APPID: the URL must not open the app.")
    var unexpectedURLs: [String] = []

    @Option(name: .customLong("cdn-base"), help: "Base URL of Apple's CDN (the domain is appended).")
    var cdnBase: String?

    @Option(name: .customLong("ca-file"), help: "A PEM file of extra trust anchors, for tests and staging.")
    var caFile: String?

    @Option(name: .customLong("connect-to"), help: "HOST:PORT:ADDR:PORT, as curl's option (also ::ADDR:PORT).")
    var connectTo: [String] = []

    @Option(help: "Seconds to wait for each answer (default 10).")
    var timeout: Double?

    @Option(help: "The most domains probed at once (default 32).")
    var concurrency: Int?

    @Option(name: .customLong("stale-after"), help: "Seconds after which a stale CDN copy is an error (default 86400).")
    var staleAfter: Double?

    @Option(name: .customLong("expiry-warning"), help: "Days before certificate expiry to warn (default 14).")
    var expiryWarningDays: Double?

    @Flag(help: "Print one JSON document instead of the report.")
    var json = false

    func run() async throws {
        let file = try loadConfiguration()
        let settings = try probeSettings(file)
        let targets = try checkTargets(file)
        let evaluation = try evaluationSettings(file)
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

    /// The configuration named by `--config`, or `nil`; every problem of an invalid file is a usage error.
    private func loadConfiguration() throws -> MonitorConfiguration? {
        guard let configPath else { return nil }
        do throws(ConfigurationFileError) {
            return try ConfigurationFile.load(path: configPath, environment: ProcessInfo.processInfo.environment)
        } catch {
            throw CommandFailure.usage("\(error)")
        }
    }

    private func checkTargets(_ file: MonitorConfiguration?) throws -> [CheckRunner.Target] {
        var normalized: [String] = []
        for domain in domains {
            do {
                normalized.append(try DomainName.normalize(domain))
            } catch {
                throw CommandFailure.usage(error.description)
            }
        }
        let configured = Dictionary(
            (file?.domains ?? []).map { ($0.name, $0.expect) }, uniquingKeysWith: { first, _ in first })
        if normalized.isEmpty { normalized = file?.domains.map(\.name) ?? [] }
        guard !normalized.isEmpty else {
            throw CommandFailure.usage("give at least one domain to check (or a --config with domains)")
        }
        do {
            let given = try ExpectationArguments.assign(
                apps: expectedApps, urls: expectedURLs, noURLs: unexpectedURLs, domains: normalized)
            return normalized.map { domain in
                var expectations = configured[domain] ?? Expectations()
                expectations.apps += given[domain]?.apps ?? []
                expectations.urls += given[domain]?.urls ?? []
                return CheckRunner.Target(domain: domain, expectations: expectations)
            }
        } catch {
            throw CommandFailure.usage(error.description)
        }
    }

    private func evaluationSettings(_ file: MonitorConfiguration?) throws -> EvaluationSettings {
        let stale = staleAfter ?? file.map { $0.cdn.staleAfter.seconds } ?? 86_400
        let warning = expiryWarningDays.map { $0 * 86_400 } ?? file.map { $0.tls.expiryWarning.seconds } ?? 14 * 86_400
        guard stale >= 0, warning >= 0 else {
            throw CommandFailure.usage("--stale-after and --expiry-warning must not be negative")
        }
        return EvaluationSettings(expiryWarning: warning, staleAfter: stale)
    }

    private func probeSettings(_ file: MonitorConfiguration?) throws -> ProbeSettings {
        let timeout = timeout ?? file.map { $0.http.timeout.seconds } ?? 10
        let concurrency = concurrency ?? file?.http.concurrency ?? 32
        let cdnBase = cdnBase ?? file?.cdn.baseURL ?? ProbeSettings.defaultCDNBaseURL
        guard timeout > 0, timeout <= 600 else {
            throw CommandFailure.usage("--timeout must be between 0 and 600 seconds")
        }
        guard (1...1024).contains(concurrency) else { throw CommandFailure.usage("--concurrency must be 1…1024") }
        guard cdnBase.lowercased().hasPrefix("https://") || cdnBase.lowercased().hasPrefix("http://") else {
            throw CommandFailure.usage("--cdn-base \(cdnBase): expected an http(s) URL")
        }
        var rules: [ConnectToRule] = []
        for text in connectTo + (file?.http.connectTo ?? []) {
            do {
                rules.append(try ConnectToRule(parsing: text))
            } catch {
                throw CommandFailure.usage("--connect-to \(text): \(error)")
            }
        }
        var trust = TrustConfiguration.system
        if let caFile = caFile ?? file?.http.caFile {
            guard FileManager.default.isReadableFile(atPath: caFile) else {
                throw CommandFailure.usage("--ca-file \(caFile): cannot read the file")
            }
            trust = .systemAnd(extraCAFile: caFile)
        }
        return ProbeSettings(
            version: MonitorVersion.current, cdnBaseURL: cdnBase, timeout: .milliseconds(Int(timeout * 1000)),
            connectTo: rules, trust: trust, concurrency: concurrency)
    }
}
