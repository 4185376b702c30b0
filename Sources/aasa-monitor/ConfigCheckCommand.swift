import ArgumentParser
import Foundation
import MonitorCheck
import MonitorCore
import MonitorDaemon
import MonitorEvaluation

/// `aasa-monitor config check [--config FILE]`: is this configuration valid, and what does it watch.
struct ConfigCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check a configuration file and list every problem in it.",
        discussion: """
            Reads --config FILE, else $AASA_MONITOR_CONFIG, else /etc/aasa-monitor/config.yml, and checks what it \
            refers to: CA files (readable PEM with a certificate), url_file and secret_file (regular files), the \
            app files of apps: (each read as the app command reads it). Prints a one-line summary when the file is \
            valid, then each app with the domains it claims (the app IDs each must list), and every problem as \
            file:line: key: message on standard error when it is not. Warnings do not make it invalid: a url_env or \
            secret_env variable not set where this runs (run refuses to start without it), a plain http:// webhook \
            beyond loopback, a chat webhook URL written into the file instead of url_file or url_env, a claim of an \
            app that belongs to no domain (an unknown service, a binary without app ID). With shard: K/N it then \
            lists the domains this shard watches, one per line. Exit codes: 0 valid; 1 invalid; 2 usage error or \
            unreadable file.
            """
    )

    @Option(name: .long, help: "The configuration file.", completion: CompletionCandidates.configurationFile)
    var config: String?

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        let path = ConfigurationLocation.resolve(flag: config, environment: environment)
        let loaded: LoadedConfiguration
        do throws(ConfigurationFileError) {
            loaded = try ConfigurationFile.check(path: path, environment: environment, unsetVariables: .warning)
        } catch {
            switch error {
            case .unreadable:
                throw CommandFailure.usage(error.description)
            case .invalid(let errors):
                for problem in errors.problems { printToStandardError(problem.description) }
                throw CommandFailure.negative
            }
        }
        for warning in loaded.warnings { printToStandardError("warning: \(warning)") }
        printForTerminal("\(path): valid: \(Self.summary(of: loaded.configuration))")
        for line in Self.appListing(of: loaded.configuration) { printForTerminal(line) }
        for line in Self.shardListing(of: loaded.configuration) { printForTerminal(line) }
    }

    /// With `shard: K/N`: `shard 2/4 watches 3 of 10 domains:` and then those names, one per line, indented.
    static func shardListing(of configuration: MonitorConfiguration) -> [String] {
        guard let shard = configuration.shard else { return [] }
        let watched = configuration.shardDomains.map(\.name)
        let total = configuration.domains.count
        return [
            "shard \(shard) watches \(watched.count) of \(total) domain\(total == 1 ? "" : "s")\(watched.isEmpty ? "" : ":")"
        ]
            + watched.map { "  \($0)" }
    }

    /// Each app of `apps:` and the domains it claims, each with what must be listed there:
    /// `Shop.ipa claims 2 domains:` then `  shop.example.com: applinks ABCDE12345.com.example.shop, …`.
    static func appListing(of configuration: MonitorConfiguration) -> [String] {
        configuration.apps.flatMap { app in
            let file = app.path.split(separator: "/").last.map(String.init) ?? app.path
            let count = app.domains.count
            let head = "\(app.path) claims \(count) domain\(count == 1 ? "" : "s")\(count == 0 ? "" : ":")"
            return [head]
                + app.domains.map { name in
                    let demands = (configuration.domains.first { $0.name == name }?.expect.apps ?? [])
                        .filter { $0.claimedBy?.hasPrefix(file + " ") == true }
                        .map { "\($0.service) \($0.appID)\($0.originOnly ? " (origin only)" : "")" }
                    return "  \(name)" + (demands.isEmpty ? "" : ": " + demands.joined(separator: ", "))
                }
        }
    }

    /// `2 domains, 1 webhook, metrics on 127.0.0.1:9090 (password required, 1 user)`, and `, 1 app` with `apps:`.
    static func summary(of configuration: MonitorConfiguration) -> String {
        let domains = configuration.domains.count
        let webhooks = configuration.webhooks.count
        var listen = configuration.listen.map { "metrics on \($0)" } ?? "metrics endpoint off"
        if let users = configuration.endpoint.basicAuth, configuration.listen != nil {
            listen += " (password required, \(users.hashes.count) user\(users.hashes.count == 1 ? "" : "s"))"
        }
        let apps = configuration.apps.count
        return "\(domains) domain\(domains == 1 ? "" : "s"), \(webhooks) webhook\(webhooks == 1 ? "" : "s"), \(listen)"
            + (apps == 0 ? "" : ", \(apps) app\(apps == 1 ? "" : "s")")
    }
}
