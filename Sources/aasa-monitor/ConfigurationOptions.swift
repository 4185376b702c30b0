import ArgumentParser
import Foundation
import MonitorCheck
import MonitorCore
import MonitorDaemon
import MonitorEvaluation

/// `--config FILE`, shared by every command that reads the configuration.
struct ConfigurationOptions: ParsableArguments {
    @Option(
        name: .customLong("config"),
        help: "The configuration file (default: $AASA_MONITOR_CONFIG, else /etc/aasa-monitor/config.yml).",
        completion: CompletionCandidates.configurationFile)
    var path: String?

    /// The path to read: the flag, then the environment variable, then the default.
    func resolvedPath(environment: [String: String]) -> String {
        ConfigurationLocation.resolve(flag: path, environment: environment)
    }

    /// Loads the configuration; a missing or invalid file is a configuration error (exit 2) listing every problem.
    /// `readingApps: false` leaves the app files of `apps:` unread, for commands that need no claims.
    func load(environment: [String: String], readingApps: Bool = true) throws -> MonitorConfiguration {
        let file = resolvedPath(environment: environment)
        do throws(ConfigurationFileError) {
            return try ConfigurationFile.load(path: file, environment: environment, readingApps: readingApps)
        } catch {
            throw CommandFailure.usage("\(error)")
        }
    }
}

/// `--state-dir DIR` and the rule that finds the state directory the daemon writes to.
struct StateOptions: ParsableArguments {
    @Option(
        name: .customLong("state-dir"), help: "Where the daemon keeps its SQLite file (overrides state_dir).",
        completion: .directory)
    var stateDirectory: String?

    /// Where `status` and `history` read, and the configuration that decides which domains they show.
    struct Located {
        var directory: StateDirectory
        /// The configuration read, when one was.
        var configuration: MonitorConfiguration?
        /// Its path, for messages.
        var configurationPath: String
        /// Why no configuration decides the domains, when none does; said beside the database.
        var note: String?
        /// For reading the app files of `apps:` after all, when a name must be checked against their claims.
        var environment: [String: String] = [:]

        /// The domains to show: this shard's configured ones; `nil` (every domain in the database) without a
        /// configuration, when it lists none, or when it has `apps:` (their claims are not read here).
        var configuredDomains: [String]? {
            guard let configuration, !configuration.domains.isEmpty, configuration.appClaimsRead else { return nil }
            return configuration.shardDomains.map(\.name)
        }

        /// Refuses (exit 2) names this configuration's daemon does not watch. The app files of `apps:` are read
        /// only when a name is not among the domains of `domains:`: only their claims can say whether it is
        /// watched.
        func requireWatched(_ names: [String]) throws {
            guard var loaded = configuration else { return }
            let listed = Set(loaded.domains.map(\.name))
            if !loaded.appClaimsRead, names.contains(where: { !listed.contains($0) }) {
                do throws(ConfigurationFileError) {
                    loaded = try ConfigurationFile.load(path: configurationPath, environment: environment)
                } catch {
                    throw CommandFailure.usage("\(error)")
                }
            }
            guard !loaded.domains.isEmpty else { return }
            try loaded.requireWatched(names, file: configurationPath)
        }

        /// `database: PATH (notes)`, the first line of `status` and `history`.
        func databaseLine(_ database: String) -> String {
            let notes = [directory.note, note].compactMap { $0 }
            return "database: \(database)" + (notes.isEmpty ? "" : " (\(notes.joined(separator: "; ")))")
        }
    }

    /// The state directory the daemon writes to, found as `run` finds it: from `--state-dir`, else from the
    /// configuration's `state_dir`, else the default with `run`'s per-user fallback.
    ///
    /// `--config` and `$AASA_MONITOR_CONFIG` must name a readable, valid file (exit 2 otherwise). Without either, the
    /// default `/etc/aasa-monitor/config.yml` is read when it exists and can be read; a from-source user has none
    /// and a user outside the daemon's group cannot read it, so then the default state directory is read and every
    /// domain in it shown. A configuration that lists no domains (the package's, before it is edited) does not
    /// hide the domains a daemon on another configuration recorded.
    func locate(configuration options: ConfigurationOptions, environment: [String: String]) throws -> Located {
        let path = options.resolvedPath(environment: environment)
        let explicit = options.path != nil || path != ConfigurationLocation.defaultPath
        var loaded: MonitorConfiguration?
        var note: String?
        if explicit && (stateDirectory == nil || options.path != nil) {
            loaded = try options.load(environment: environment, readingApps: false)
        } else if stateDirectory == nil {
            do throws(ConfigurationFileError) {
                loaded = try ConfigurationFile.load(path: path, environment: environment, readingApps: false)
            } catch {
                guard case .unreadable(_, let reason) = error else { throw CommandFailure.usage("\(error)") }
                note = "\(path) not read: \(reason); every domain in the database"
            }
        }
        if let loaded, loaded.domains.isEmpty, loaded.appClaimsRead {
            note = "\(path) lists no domains; every domain in the database"
        } else if let loaded, !loaded.appClaimsRead {
            // Claims need the app files read (an .ipa inflated): the daemon's database already knows the domains.
            note = "the app files of apps: are not read here; every domain in the database"
        }
        let directory = StateDirectory.locate(
            configured: loaded?.stateDirectory, override: stateDirectory, environment: environment,
            isRoot: geteuid() == 0)
        return Located(
            directory: directory, configuration: loaded, configurationPath: path, note: note, environment: environment)
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
