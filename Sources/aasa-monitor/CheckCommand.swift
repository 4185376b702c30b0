import AASA
import ArgumentParser
import Foundation
import HTTPEngine
import MonitorCheck
import MonitorCore
import MonitorDaemon
import MonitorEvaluation

/// `aasa-monitor check DOMAIN...`: will universal links work for these domains, on Apple's copy, right now?
struct CheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Probe domains' origins and Apple's CDN now; the exit code gates a release.",
        discussion: """
            With --config FILE, the file's domains (when none are named), their expectations and its http, tls and \
            cdn settings apply; options given on the command line win. Exit codes: 0 every domain ready; 1 an \
            origin is broken; 3 origins fine but Apple's CDN does not yet serve their content (stale, missing) or \
            could not be asked (or this host reached neither the origin nor Apple's CDN); 4 an expectation failed; \
            2 usage or configuration error, or the report could not be written (a full disk: it is incomplete). A reader that goes away (| head) stops the check with 141.
            """
    )

    @Argument(help: "Domains to check (IDNs are converted to Punycode; *.example.com is checked at example.com).")
    var domains: [String] = []

    @Option(
        name: .customLong("config"),
        help: "A configuration file whose domains, expectations and http/tls/cdn settings to use.",
        completion: CompletionCandidates.configurationFile)
    var configPath: String?

    @Option(
        name: .customLong("expect-app"),
        help: ArgumentHelp(
            "[DOMAIN=][SERVICE:]APPID: an app ID that must be listed on both copies.",
            discussion: "A bare APPID applies to every domain checked; DOMAIN=APPID to that domain only. SERVICE "
                + "is applinks (the default), webcredentials, appclips or activitycontinuation."))
    var expectedApps: [String] = []

    @Option(name: .customLong("expect-url"), help: "URL=APPID: the URL must open the app (split at the last '=').")
    var expectedURLs: [String] = []

    @Option(name: .customLong("expect-no-url"), help: "URL=APPID: the URL must not open the app.")
    var unexpectedURLs: [String] = []

    @Option(
        name: .customLong("app"),
        help: ArgumentHelp(
            "An .ipa, .app, .xcarchive, Mach-O or .entitlements file whose claimed domains to check (repeatable).",
            discussion: "Every domain the build's binaries claim (main app, App Clips, extensions) is checked once, "
                + "each claim as an expectation: the binary's app ID listed in the claimed service, on the origin "
                + "and on Apple's copy (on the origin only for ?mode=developer and ?mode=managed)."),
        completion: .file())
    var appPaths: [String] = []

    @Option(name: .customLong("app-id"), help: "The app ID (TEAMID.bundle.id) of an .entitlements file given to --app.")
    var appID: String?

    @Option(name: .customLong("cdn-base"), help: "Base URL of Apple's CDN (the domain is appended).")
    var cdnBase: String?

    @Option(name: .customLong("ca-file"), help: "A PEM file of extra trust anchors, for tests and staging.")
    var caFile: String?

    @Option(name: .customLong("connect-to"), help: "HOST:PORT:ADDR:PORT, as curl's option (also ::ADDR:PORT).")
    var connectTo: [String] = []

    @Option(help: "How long to wait for each answer, like http.timeout: 3s, 1m (default 10s).")
    var timeout: String?

    @Option(help: "The most domains probed at once (default 32).")
    var concurrency: Int?

    @Option(
        name: .customLong("stale-after"),
        help: "How long a stale CDN copy may lag before it is an error, like cdn.stale_after: 12h, 1d (default 1d).")
    var staleAfter: String?

    @Option(
        name: .customLong("expiry-warning"),
        help: "Warn about certificates expiring sooner than this, like tls.expiry_warning: 14d (default 14d).")
    var expiryWarning: String?

    @Option(
        help: ArgumentHelp(
            "DURATION: check again until every domain is ready or the time is up (20m, 1h).",
            discussion: "Only Apple's CDN lagging (exit 3) is waited for: a broken origin (1), a failed expectation "
                + "(4) or a usage error (2) stops at once. Waiting domains are checked again when Apple's copy may "
                + "change (its max-age), at most once a minute; a progress line goes to standard error, and on exit 3 "
                + "a last line says why waiting ended (or never began: a --wait shorter than a minute)."))
    var wait: String?

    /// The shortest time between two checks while waiting: a minute, shorter only for the tests' fixture CDN.
    @Option(name: .customLong("wait-step"), help: .hidden)
    var waitStep: String?

    @Flag(help: "Print one JSON document instead of the report.")
    var json = false

    @Flag(
        name: .customLong("json-lines"),
        help: "Print one JSON object per line, one line per domain as --json prints it, then {\"summary\":{…}}.")
    var jsonLines = false

    func validate() throws {
        if json && jsonLines { throw ValidationError("--json and --json-lines: choose one") }
        if wait != nil && jsonLines {
            throw ValidationError("--wait and --json-lines: --wait prints the last check only")
        }
    }

    /// Streams: each domain is printed as soon as it and every domain named before it are done; a slower domain
    /// holds back the later ones as their rendered text or encoded JSON only, never their full reports.
    func run() async throws {
        let claimed = try readApps()
        let (settings, targets, evaluation) = try prepare(claimed)
        // The parsed configuration is gone; give its heap back before the checks allocate (10,000 domains: ~5 MB
        // of YAML nodes, 3 MB of peak RSS measured).
        ProcessHeap.releaseFreeMemory()
        signal(SIGPIPE, SIG_IGN)
        if let wait {
            let limit = try duration("--wait", wait) ?? .zero
            let step = try duration("--wait-step", waitStep) ?? .seconds(60)
            try await runWaiting(
                targets, probe: settings, evaluation: evaluation, for: limit, step: step)
            return
        }
        var verdicts: [Verdict] = []
        let progress = CheckProgressDisplay(total: Set(targets.map(\.domain)).count)
        if json || jsonLines {
            var output = CheckJSONStream(lines: jsonLines)
            try await progress.showing {
                try await CheckRunner.stream(
                    targets, probe: settings, evaluation: evaluation,
                    compact: { report in
                        progress.domainChecked()
                        return (report.verdict, try CheckJSONStream.encode(report))
                    },
                    emit: { verdict, encoded in
                        verdicts.append(verdict)
                        try progress.output { () throws(CommandFailure) in
                            try StandardOutput.write(output.piece(encoded))
                        }
                    })
            }
            let summary = CheckSummary(verdicts: verdicts, version: MonitorVersion.current, checkedAt: Date())
            try StandardOutput.write(try output.end(summary: summary))
        } else {
            try await progress.showing {
                try await CheckRunner.stream(
                    targets, probe: settings, evaluation: evaluation,
                    compact: { report in
                        progress.domainChecked()
                        return (report.verdict, TerminalText.safe(ReportText.render(report)))
                    },
                    emit: { verdict, text in
                        try progress.output { () throws(CommandFailure) in
                            try StandardOutput.write(Data(((verdicts.isEmpty ? "" : "\n") + text).utf8))
                        }
                        verdicts.append(verdict)
                    })
            }
            let summary = CheckSummary(verdicts: verdicts, version: MonitorVersion.current, checkedAt: Date())
            try StandardOutput.write(Data(("\n" + summary.line + "\n").utf8))
        }
        // An app's problem that names no checked domain (an unknown service) is a warning on standard error, as the
        // configuration's `apps:` warns of it: `check --app` and the daemon judge the same build alike.
        let code = Verdict.exitCode(for: verdicts)
        if code != 0 { throw CommandFailure(message: "", exitCode: code) }
    }

    /// What to check and how, from the flags and the configuration; the parsed configuration itself is not kept
    /// while the domains are checked (with 10,000 domains it is megabytes).
    private func prepare(_ claimed: ClaimedDomains) throws -> (ProbeSettings, [CheckRunner.Target], EvaluationSettings)
    {
        let file = try loadConfiguration()
        let settings: ResolvedSettings
        do {
            settings = try ResolvedSettings.resolve(file, overrides: overrides)
        } catch {
            throw CommandFailure.usage(error.description)
        }
        return (settings.probe, try checkTargets(file, claimed: claimed), settings.evaluation)
    }

    /// The flags that override the configuration's settings, as typed: `ResolvedSettings` judges them by the limits
    /// the file's keys are judged by.
    var overrides: SettingOverrides {
        SettingOverrides(
            timeout: timeout, concurrency: concurrency, cdnBase: cdnBase, caFile: caFile, connectTo: connectTo,
            staleAfter: staleAfter, expiryWarning: expiryWarning)
    }

    /// The configuration named by `--config`, or `nil`. Its problems, CA files included, are reported by the
    /// configuration key that names them (exit 2), never as a flag the user did not pass.
    private func loadConfiguration() throws -> MonitorConfiguration? {
        guard let configPath else { return nil }
        do throws(ConfigurationFileError) {
            return try ConfigurationFile.load(path: configPath, environment: ProcessInfo.processInfo.environment)
        } catch {
            throw CommandFailure.usage("\(error)")
        }
    }

    /// A duration flag read as the configuration reads its key; the same refusal, prefixed with the flag.
    func duration(_ flag: String, _ text: String?, minimum: Duration = .seconds(1)) throws -> Duration? {
        guard let text else { return nil }
        switch SettingValue.duration(text, minimum: minimum) {
        case .success(let duration): return duration
        case .failure(let error): throw CommandFailure.usage("\(flag) \(text): \(error.reason)")
        }
    }

    private func checkTargets(_ file: MonitorConfiguration?, claimed: ClaimedDomains) throws -> [CheckRunner.Target] {
        var normalized: [String] = []
        for domain in domains {
            do {
                normalized.append(try DomainName.normalize(domain))
            } catch {
                throw CommandFailure.usage(error.description)
            }
        }
        // A domain named here is judged on both copies; one only apps claim (here or under the file's `apps:`), on
        // the copies its claims read; the file's `domains:` are judged on both (`Expectations.originOnly`).
        let named = Set(normalized)
        let configured = Dictionary(
            (file?.domains ?? []).map { ($0.name, $0.expect) }, uniquingKeysWith: { first, _ in first })
        if normalized.isEmpty { normalized = file?.domains.map(\.name) ?? [] }
        let claimedByDomain = Dictionary(claimed.domains, uniquingKeysWith: { first, _ in first })
        for (domain, _) in claimed.domains where !normalized.contains(domain) { normalized.append(domain) }
        guard !normalized.isEmpty else {
            throw CommandFailure.usage(
                appPaths.isEmpty
                    ? "give at least one domain to check (or a --config with domains, or an --app)"
                    : "the app files given to --app claim no domain: nothing to check")
        }
        do {
            let given = try ExpectationArguments.assign(
                apps: expectedApps, urls: expectedURLs, noURLs: unexpectedURLs, domains: normalized)
            return normalized.map { domain in
                var expectations = configured[domain] ?? Expectations(originOnly: true)
                if named.contains(domain) { expectations.originOnly = false }
                expectations.apps += given[domain]?.apps ?? []
                expectations.urls += given[domain]?.urls ?? []
                if let typed = given[domain], !typed.apps.isEmpty || !typed.urls.isEmpty {
                    expectations.originOnly = false
                }
                if let fromApps = claimedByDomain[domain] { expectations.merge(fromApps) }
                return CheckRunner.Target(domain: domain, expectations: expectations)
            }
        } catch {
            throw CommandFailure.usage(error.description)
        }
    }
}

/// Standard output written unbuffered, one piece per domain, so a reader sees each domain as soon as `check` prints
/// it, even on a pipe.
///
/// A failed write ends the check, since nothing more could be reported: a reader that went away (`| head`) ends it
/// quietly with 141, as SIGPIPE would (SIGPIPE is ignored so that this can be said); any other failure (a full disk
/// under `--json > file`) with exit 2 and a message, so that a cut report never passes as a complete one with 0.
enum StandardOutput {
    static func write(_ data: Data) throws(CommandFailure) {
        let failure = DescriptorWriter.writeAll(data, to: STDOUT_FILENO)
        guard failure != 0 else { return }
        if failure == EPIPE { throw CommandFailure(message: "", exitCode: 128 + SIGPIPE) }
        throw CommandFailure.usage(
            "cannot write the report to standard output (\(String(cString: strerror(failure)))): it is incomplete"
                + " and check stopped; make room or write it elsewhere, then run check again")
    }
}
