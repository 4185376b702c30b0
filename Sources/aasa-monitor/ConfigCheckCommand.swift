import ArgumentParser
import Foundation
import Monitor

/// `aasa-monitor config check [--config FILE]`: is this configuration valid, and what does it watch.
struct ConfigCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check a configuration file and list every problem in it.",
        discussion: """
            Reads --config FILE, else $AASA_MONITOR_CONFIG, else /etc/aasa-monitor/config.yml. Exits 0 and prints \
            a one-line summary when the file is valid; exits 1 and prints every problem as file:line: key: message \
            on standard error when it is not; exits 2 when the file cannot be read.
            """
    )

    @Option(name: .long, help: "The configuration file.")
    var config: String?

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        let path = ConfigurationLocation.resolve(flag: config, environment: environment)
        let configuration: MonitorConfiguration
        do throws(ConfigurationFileError) {
            configuration = try ConfigurationFile.load(path: path, environment: environment)
        } catch {
            switch error {
            case .unreadable:
                throw CommandFailure.usage(error.description)
            case .invalid(let errors):
                for problem in errors.problems { printToStandardError(problem.description) }
                throw CommandFailure.negative
            }
        }
        print("\(path): valid: \(Self.summary(of: configuration))")
    }

    /// `2 domains, 1 webhook, metrics on 127.0.0.1:9090 (password required, 1 user)`.
    static func summary(of configuration: MonitorConfiguration) -> String {
        let domains = configuration.domains.count
        let webhooks = configuration.webhooks.count
        var listen = configuration.listen.map { "metrics on \($0)" } ?? "metrics endpoint off"
        if let users = configuration.endpoint.basicAuth, configuration.listen != nil {
            listen += " (password required, \(users.hashes.count) user\(users.hashes.count == 1 ? "" : "s"))"
        }
        return "\(domains) domain\(domains == 1 ? "" : "s"), \(webhooks) webhook\(webhooks == 1 ? "" : "s"), \(listen)"
    }
}
