import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The directory holding the state file, chosen by the same rule for every command so `status` finds what `run`
/// wrote: `--state-dir` wins; else the configuration's `state_dir` (default `/var/lib/aasa-monitor`); when that
/// cannot be created or written and the user is not root, `$XDG_STATE_HOME/aasa-monitor` (or
/// `~/.local/state/aasa-monitor`), with a note saying so. Root gets an error instead: a daemon running as root
/// writing into root's home would hide the problem.
package struct StateDirectory: Sendable, Hashable {
    /// Where state lives when the configuration names no `state_dir`.
    package static let defaultPath = "/var/lib/aasa-monitor"

    /// The directory to use.
    package var path: String
    /// Set when the configured directory was not usable and the per-user fallback was chosen; worth logging.
    package var note: String?

    package init(path: String, note: String? = nil) {
        self.path = path
        self.note = note
    }

    /// The directory `run` writes to, created (mode 0750, parents too) and checked for writing.
    ///
    /// - Parameters:
    ///   - configured: The configuration's `state_dir`; `nil` means `defaultPath`.
    ///   - override: `--state-dir`; it wins, and is never replaced by the fallback.
    ///   - environment: For `XDG_STATE_HOME` and `HOME`.
    ///   - isRoot: Whether the effective user is root (`geteuid() == 0`).
    package static func prepare(
        configured: String?, override: String?, environment: [String: String], isRoot: Bool
    ) throws(StateDirectoryError) -> StateDirectory {
        if let override, !override.isEmpty {
            if let reason = makeUsable(override) {
                throw StateDirectoryError(path: override, reason: reason, suggestion: "choose another --state-dir")
            }
            return StateDirectory(path: override)
        }
        let wanted = configured ?? defaultPath
        guard let reason = makeUsable(wanted) else { return StateDirectory(path: wanted) }
        guard !isRoot else {
            throw StateDirectoryError(
                path: wanted, reason: reason, suggestion: "fix its permissions or pass --state-dir DIR")
        }
        guard let fallback = fallbackPath(environment: environment) else {
            throw StateDirectoryError(
                path: wanted, reason: reason,
                suggestion: "pass --state-dir DIR (HOME is not set, so there is no fallback)")
        }
        if let fallbackReason = makeUsable(fallback) {
            throw StateDirectoryError(
                path: wanted, reason: "\(reason); the fallback \(fallback) is not usable either: \(fallbackReason)",
                suggestion: "pass --state-dir DIR")
        }
        return StateDirectory(path: fallback, note: fallbackNote(wanted: wanted, reason: reason, fallback: fallback))
    }

    /// The directory `status` and `history` read, by the same rule as `prepare` but creating nothing.
    ///
    /// The configured directory is used when `run` would have used it (it is writable), or when it is readable and
    /// no per-user fallback exists (an operator in the daemon's group reading the system state). Otherwise an
    /// existing per-user fallback is used, with a note. The result may not exist; the caller says there is no state.
    package static func locate(
        configured: String?, override: String?, environment: [String: String], isRoot: Bool
    ) -> StateDirectory {
        if let override, !override.isEmpty { return StateDirectory(path: override) }
        let wanted = configured ?? defaultPath
        if isRoot || access(wanted, W_OK | X_OK) == 0 { return StateDirectory(path: wanted) }
        let reason = isDirectory(wanted) ? "it is not writable by this user" : "it does not exist"
        if let fallback = fallbackPath(environment: environment), isDirectory(fallback) {
            return StateDirectory(
                path: fallback, note: fallbackNote(wanted: wanted, reason: reason, fallback: fallback))
        }
        return StateDirectory(path: wanted)
    }

    /// `$XDG_STATE_HOME/aasa-monitor` when that is an absolute path (the XDG spec ignores relative ones), else
    /// `$HOME/.local/state/aasa-monitor`; `nil` without a home.
    package static func fallbackPath(environment: [String: String]) -> String? {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return join(state, "aasa-monitor") }
        if let home = environment["HOME"], home.hasPrefix("/") { return join(home, ".local/state/aasa-monitor") }
        return nil
    }

    private static func fallbackNote(wanted: String, reason: String, fallback: String) -> String {
        "state directory \(wanted) is not usable (\(reason)); using \(fallback) instead (pass --state-dir to choose)"
    }

    private static func join(_ base: String, _ component: String) -> String {
        base.hasSuffix("/") ? base + component : base + "/" + component
    }

    private static func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// Creates `path` and its missing parents with mode 0750 and checks that it can be written; the reason when not.
    private static func makeUsable(_ path: String) -> String? {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, 0o750) != 0 && errno != EEXIST {
                return "cannot create \(prefix): \(String(cString: strerror(errno)))"
            }
        }
        guard isDirectory(path) else { return "it exists but is not a directory" }
        guard access(path, W_OK | X_OK) == 0 else { return "it is not writable: \(String(cString: strerror(errno)))" }
        return nil
    }
}

/// A state directory that cannot be used, with the reason and what to do.
package struct StateDirectoryError: Error, Sendable, Hashable, CustomStringConvertible {
    package var path: String
    package var reason: String
    package var suggestion: String

    package init(path: String, reason: String, suggestion: String) {
        self.path = path
        self.reason = reason
        self.suggestion = suggestion
    }

    package var description: String { "cannot use state directory \(path): \(reason); \(suggestion)" }
}
