import AASA
import ArgumentParser

/// `aasa-monitor match`: would these URLs open this app, according to this file?
struct MatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "match",
        abstract: "Decide, as Apple does, whether URLs open an app according to an AASA file.",
        discussion: """
            Prints one decision per URL and app: match (opens the app), exclude (an exclude rule or a legacy \
            "NOT " path matched first) or no_match, with the rule that decided. Exit codes: 0 every URL \
            evaluated, whatever the decisions; 1 a decision is undecided (a rule too large to decide safely within \
            the step budget); 2 usage error, a file that cannot be read or parsed, or a URL that is not an absolute \
            https URL.
            """
    )

    @Option(name: .long, help: "The apple-app-site-association file.", completion: .file())
    var file: String

    @Option(name: .long, help: "The file's domain; URLs on another host are no_match. Unchecked when omitted.")
    var domain: String?

    @Option(name: .long, help: "App ID, e.g. ABCDE12345.com.example.app (repeat for several apps).")
    var app: [String]

    @Argument(help: "URLs to decide.")
    var urls: [String]

    @Flag(name: .long, help: "Print one JSON document on standard output.")
    var json = false

    func validate() throws {
        if app.isEmpty { throw ValidationError("Missing expected argument '--app <app>'") }
        if urls.isEmpty { throw ValidationError("Missing expected argument '<urls> ...'") }
    }

    func run() throws {
        let (document, _) = try DocumentFile.document(file)
        let matcher = URLMatcher(document: document)
        var results: [MatchReport.Result] = []
        for url in urls {
            let parsed: MatchableURL
            do {
                parsed = try MatchableURL(url)
            } catch {
                throw CommandFailure.usage(error.description)
            }
            for appID in app {
                let outcome = matcher.decide(parsed, appID: appID, domain: domain)
                results.append(MatchReport.Result(url: url, app: appID, outcome: outcome))
            }
        }
        if json {
            try JSONOutput.print(MatchReport(results: results))
        } else {
            results.forEach { printForTerminal($0.line) }
        }
        if results.contains(where: { $0.decision == .undecided }) { throw CommandFailure.negative }
    }
}

/// The `match --json` document: `{"results": [{"url", "app", "decision", "rule", "reason"}]}`.
struct MatchReport: Encodable {
    struct Result: Encodable {
        var url: String
        var app: String
        var decision: MatchDecision
        /// Always present, `null` when no rule decided, so scripts can rely on the key.
        var rule: DecidingRule?
        var reason: String?

        init(url: String, app: String, outcome: MatchOutcome) {
            self.url = url
            self.app = app
            decision = outcome.decision
            rule = outcome.rule
            reason = outcome.reason
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(url, forKey: .url)
            try container.encode(app, forKey: .app)
            try container.encode(decision, forKey: .decision)
            try container.encode(rule, forKey: .rule)
            try container.encodeIfPresent(reason, forKey: .reason)
        }

        private enum CodingKeys: String, CodingKey {
            case url, app, decision, rule, reason
        }

        /// One line for a person: decision, URL, app, and the deciding rule or the reason.
        var line: String {
            let why: String
            if let rule {
                let pattern = rule.path.map { "\"\($0)\"" } ?? rule.pattern.map { "\"/\": \"\($0.path)\"" } ?? ""
                why = "by \(rule.jsonPath) \(pattern)"
            } else {
                why = reason ?? ""
            }
            let label = decision.rawValue + String(repeating: " ", count: max(0, 8 - decision.rawValue.count))
            return "\(label) \(url) for \(app): \(why)"
        }
    }

    var results: [Result]
}
