import ArgumentParser
import Foundation
import Monitor

/// `--config FILE`, shared by every command that reads the configuration.
struct ConfigurationOptions: ParsableArguments {
    @Option(
        name: .customLong("config"),
        help: "The configuration file (default: $AASA_MONITOR_CONFIG, else /etc/aasa-monitor/config.yml).")
    var path: String?

    /// The path to read: the flag, then the environment variable, then the default.
    func resolvedPath(environment: [String: String]) -> String {
        ConfigurationLocation.resolve(flag: path, environment: environment)
    }

    /// Loads the configuration; a missing or invalid file is a configuration error (exit 2) listing every problem.
    func load(environment: [String: String]) throws -> MonitorConfiguration {
        let file = resolvedPath(environment: environment)
        do throws(ConfigurationFileError) {
            return try ConfigurationFile.load(path: file, environment: environment)
        } catch {
            throw CommandFailure.usage("\(error)")
        }
    }
}

/// `--state-dir DIR` and the rule that finds the state directory the daemon writes to.
struct StateOptions: ParsableArguments {
    @Option(name: .customLong("state-dir"), help: "Where the daemon keeps its SQLite file (overrides state_dir).")
    var stateDirectory: String?

    /// The state directory the daemon writes to, found from `--state-dir` alone or from the configuration's
    /// `state_dir`, and the configuration when one was read.
    func locate(
        configuration options: ConfigurationOptions, environment: [String: String]
    ) throws -> (directory: StateDirectory, configuration: MonitorConfiguration?) {
        var loaded: MonitorConfiguration?
        if stateDirectory == nil || options.path != nil {
            loaded = try options.load(environment: environment)
        }
        let directory = StateDirectory.locate(
            configured: loaded?.stateDirectory, override: stateDirectory, environment: environment,
            isRoot: geteuid() == 0)
        return (directory, loaded)
    }
}

extension MonitorConfiguration {
    /// Refuses (exit 2) names this configuration's daemon does not watch: not in the file at all, or, with `shard`,
    /// watched by another shard's daemon; each message says where to look instead.
    func requireWatched(_ names: [String], file: String) throws {
        let configured = Set(domains.map(\.name))
        let unknown = names.filter { !configured.contains($0) }
        if !unknown.isEmpty {
            throw CommandFailure.usage(
                "\(unknown.joined(separator: ", ")) \(unknown.count == 1 ? "is" : "are") not configured in \(file)"
                    + " (it has \(domains.count) domain\(domains.count == 1 ? "" : "s"))")
        }
        guard let shard, let elsewhere = names.first(where: { !shard.contains($0) }) else { return }
        let owner = Shard.shardIndex(of: elsewhere, count: shard.count)
        throw CommandFailure.usage(
            "\(elsewhere) is watched by shard \(owner)/\(shard.count), not by this configuration's \(shard) (\(file)): "
                + "read it with that daemon's configuration or its --state-dir")
    }
}
