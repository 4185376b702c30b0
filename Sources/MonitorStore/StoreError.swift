/// Why the state database could not be used, naming the file.
package struct StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    package enum Reason: Sendable, Hashable {
        /// No database file at the path: the daemon has not run with this state directory yet.
        case missing
        /// The file was written by a newer aasa-monitor (migrations this version does not know).
        case newerSchema
        /// The file lacks migrations this version needs; the daemon migrates it when it starts.
        case olderSchema
        /// A stored value (JSON, a time) could not be read back.
        case corruptValue(String)
        /// SQLite could open the file only read-only (owner, mode, immutable flag, read-only mount).
        case unwritable
    }

    package var reason: Reason
    package var path: String

    package init(_ reason: Reason, path: String) {
        self.reason = reason
        self.path = path
    }

    package var description: String {
        switch reason {
        case .missing:
            "no state database at \(path): the daemon has not run with this state directory; check the path "
                + "(--state-dir, state_dir) or start the daemon with it first"
        case .newerSchema:
            "the state database \(path) was written by a newer aasa-monitor; upgrade this one"
        case .olderSchema:
            "the state database \(path) has an older schema; start the daemon (aasa-monitor run) to migrate it"
        case .corruptValue(let what):
            "the state database \(path) holds an unreadable value: \(what)"
        case .unwritable:
            "the state database \(path) can only be opened read-only: give the daemon's user write access to it and "
                + "its -wal and -shm files (owner, mode, immutable flag, mount); under systemd the daemon restarts "
                + "and continues once it can write"
        }
    }
}
