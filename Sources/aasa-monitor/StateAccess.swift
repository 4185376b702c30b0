import Foundation
import MonitorCheck
import MonitorDaemon
import MonitorStore

/// How the operator commands (`silence`, `outbox`) reach the daemon's database: never by making a state that no
/// daemon reads.
///
/// A mistyped `--state-dir` used to get a new database: `silence add` said "silenced until …" and exited 0 for a
/// silence no daemon would obey, and `outbox list` called the outbox empty (issue 35 item 5). Without a database
/// these commands now refuse as `status` does (exit 1, naming the file) and create nothing. Only `silence add`
/// creates one, so that a silence can be added before the daemon's first start, and only where the configuration
/// keeps the daemon's state.
enum StateAccess {
    /// The database file of the located state directory (`MonitorStore` names it so).
    static func databasePath(_ located: StateOptions.Located) -> String {
        (located.directory.path as NSString).appendingPathComponent(MonitorStore.databaseFileName)
    }

    /// Opens the database read-only, after printing the `database:` line unless `json`. Refuses (exit 1) as
    /// `status` does when there is none or it cannot be read; with `json`, prints `emptyJSON` first when there is
    /// none, so that a script reading the output meets the document's shape.
    static func reader(_ located: StateOptions.Located, json: Bool, emptyJSON: () throws -> Void) throws -> StoreReader
    {
        do {
            let reader = try StoreReader.openReadOnly(directory: located.directory.path)
            if !json { printForTerminal(located.databaseLine(reader.path)) }
            return reader
        } catch let error as StoreError {
            if !json { printForTerminal(located.databaseLine(error.path)) }
            if json, error.reason == .missing { try emptyJSON() }
            throw CommandFailure(message: "error: \(error)", exitCode: 1)
        } catch {
            if !json { printForTerminal(located.databaseLine("in \(located.directory.path)")) }
            throw CommandFailure(message: "error: \(error)", exitCode: 1)
        }
    }

    /// Opens the existing database to change it, printing the `database:` line; refuses (exit 1) when there is none.
    ///
    /// Root may change a database another user owns: SQLite running as root gives the `-wal` and `-shm` files it
    /// creates the database file's owner, so the daemon can still open them.
    static func store(_ located: StateOptions.Located) async throws -> MonitorStore {
        let path = databasePath(located)
        if isMissing(path) {
            printForTerminal(located.databaseLine(path))
            throw CommandFailure(message: "error: \(StoreError(.missing, path: path))", exitCode: 1)
        }
        return try await open(located)
    }

    /// `store(_:)` for `silence add`, which may create the database before the daemon's first start: only when
    /// `configured` (the state directory is the configuration's, not a `--state-dir` that may be mistyped), and
    /// never as root in a directory another user owns.
    ///
    /// That refusal is the careful choice over creating the files and handing them to the directory's owner: root
    /// writing in a directory another user controls can be led elsewhere by a link planted there, a failure
    /// between creating and handing over would leave root's files behind, and the same command run as the owner
    /// leaves nothing to repair.
    static func creatingStore(_ located: StateOptions.Located, configured: Bool) async throws -> MonitorStore {
        let path = databasePath(located)
        let directory = located.directory.path
        guard isMissing(path) else { return try await open(located) }
        guard configured, located.directory.note == nil else {
            printForTerminal(located.databaseLine(path))
            throw CommandFailure(
                message: "error: \(StoreError(.missing, path: path)); silence add creates one only in the "
                    + "configuration's state_dir (--config), before the daemon's first start", exitCode: 1)
        }
        if geteuid() == 0, let uid = owner(of: directory), uid != 0 {
            let owner = userName(uid)
            printForTerminal(located.databaseLine(path))
            throw CommandFailure(
                message: "error: \(directory) belongs to \(owner) and holds no database yet; one created by root "
                    + "could not be opened by a daemon running as \(owner), so nothing was written: run "
                    + "`sudo -u \(sudoUser(uid)) \(commandLine())`", exitCode: 1)
        }
        // Made as `run` makes it (mode 0750), so that the daemon's own first start would leave the same.
        if mkdir(directory, 0o750) != 0, errno == ENOENT {
            try? FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o750])
        }
        return try await open(located)
    }

    /// Whether `path` certainly does not exist (a directory on the way missing, or the file); a path that cannot
    /// be reached for another reason is left to the open, which names that reason.
    static func isMissing(_ path: String) -> Bool {
        access(path, F_OK) != 0 && (errno == ENOENT || errno == ENOTDIR)
    }

    /// The user id owning `path`, when it can be read.
    static func owner(of path: String) -> uid_t? {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        return (attributes?[.ownerAccountID] as? NSNumber).map { uid_t($0.uint32Value) }
    }

    private static func open(_ located: StateOptions.Located) async throws -> MonitorStore {
        let directory = located.directory.path
        do {
            let store = try await MonitorStore.open(directory: directory)
            printForTerminal(located.databaseLine(store.path))
            return store
        } catch {
            // Only a directory of another user is a matter of who runs the command; a full disk or a damaged
            // database is not, and advice to switch users would send the reader the wrong way.
            var advice = ""
            if let owner = owner(of: directory), owner != geteuid() {
                advice = " (run as the daemon's user: sudo -u \(sudoUser(owner)) \(commandLine()))"
            }
            throw CommandFailure(
                message: "error: cannot write the state database in \(directory): \(error)\(advice)", exitCode: 1)
        }
    }

    /// The user's name, else its number.
    private static func userName(_ uid: uid_t) -> String {
        guard let entry = getpwuid(uid), let name = entry.pointee.pw_name else { return "uid \(uid)" }
        return String(cString: name)
    }

    /// What `sudo -u` takes for `uid`: its name, else `'#1001'`.
    private static func sudoUser(_ uid: uid_t) -> String {
        guard let entry = getpwuid(uid), let name = entry.pointee.pw_name else { return "'#\(uid)'" }
        return String(cString: name)
    }

    /// This command as typed, each argument quoted for a POSIX shell where it needs it, to be run again.
    static func commandLine(_ arguments: [String] = CommandLine.arguments) -> String {
        let plain = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789@%+=:,./_-")
        return arguments.map { argument in
            !argument.isEmpty && argument.allSatisfy(plain.contains)
                ? argument : "'" + argument.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
        }.joined(separator: " ")
    }
}
