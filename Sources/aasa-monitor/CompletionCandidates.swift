import ArgumentParser
import Foundation
import MonitorCheck
import MonitorCore
import MonitorDaemon
import MonitorEvaluation

/// What the shells complete beyond files and fixed words: names that live in the configuration.
///
/// argument-parser's completion scripts call the binary back (`aasa-monitor ---completion … -- ARG …`) with the
/// words on the command line; these read the configuration those words name (`--config FILE`, else
/// `$AASA_MONITOR_CONFIG`, else the default) and never fail: no candidates is the answer to any problem.
enum CompletionCandidates {
    /// The configured domains (`status`, `history`).
    static let domains = CompletionKind.custom { words, _, prefix in
        matching(configuration(words)?.domains.map(\.name) ?? [], prefix: prefix)
    }

    /// The configured webhooks' names (`webhook test`).
    static let webhooks = CompletionKind.custom { words, _, prefix in
        matching(configuration(words)?.webhooks.map(\.name) ?? [], prefix: prefix)
    }

    /// A configuration file: YAML, or a directory on the way to one.
    static let configurationFile = CompletionKind.file(extensions: ["yml", "yaml"])

    private static func matching(_ names: [String], prefix: String) -> [String] {
        names.filter { $0.hasPrefix(prefix) }
    }

    /// The configuration the command line would read, or `nil` when it cannot be read or is invalid. Unset `*_env`
    /// variables do not matter here.
    static func configuration(_ words: [String]) -> MonitorConfiguration? {
        let environment = ProcessInfo.processInfo.environment
        let path = ConfigurationLocation.resolve(flag: configurationFlag(in: words), environment: environment)
        return try? ConfigurationFile.check(path: path, environment: environment, unsetVariables: .warning)
            .configuration
    }

    /// The value of `--config FILE` or `--config=FILE` among `words`, unquoted as far as a shell word is simply
    /// quoted (`'~/a b.yml'`); a leading `~/` is the home directory, as the shell would expand it.
    static func configurationFlag(in words: [String]) -> String? {
        var value: String?
        for (index, word) in words.enumerated() {
            if word == "--config", index + 1 < words.count {
                value = words[index + 1]
            } else if word.hasPrefix("--config=") {
                value = String(word.dropFirst("--config=".count))
            }
        }
        guard var path = value, !path.isEmpty else { return nil }
        if path.count >= 2, let first = path.first, first == "'" || first == "\"", path.last == first {
            path = String(path.dropFirst().dropLast())
        }
        if path.hasPrefix("~/"), let home = ProcessInfo.processInfo.environment["HOME"] {
            path = home + path.dropFirst()
        }
        return path
    }
}
