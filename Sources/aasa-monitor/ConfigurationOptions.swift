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

    /// Opens the daemon's database read-only: from `--state-dir` alone, or from the configuration's `state_dir`.
    /// Returns the configuration too when one was read.
    func openReader(
        configuration options: ConfigurationOptions, environment: [String: String]
    ) throws -> (StoreReader, MonitorConfiguration?) {
        let (directory, loaded) = try locate(configuration: options, environment: environment)
        do {
            return (try StoreReader.openReadOnly(directory: directory.path), loaded)
        } catch {
            throw CommandFailure(message: "error: \(error)", exitCode: 1)
        }
    }
}
