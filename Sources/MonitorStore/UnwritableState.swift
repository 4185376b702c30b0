import Foundation

#if canImport(Glibc)
    import Glibc
    // `struct stat` and its fields are attributed to whichever C module first included <sys/stat.h>; that varies
    // between builds (MemberImportVisibility then names CoreFoundation or CDispatch), so import every candidate.
    import CoreFoundation
    #if canImport(CDispatch)
        import CDispatch
    #endif
#endif

/// Why `run` cannot write its state database, said as the file, its owner and the command that fixes it.
///
/// The usual cause (issue 23 item 3): the README's from-source command run as root leaves root-owned database files
/// in `/var/lib/aasa-monitor`; the packaged service then runs as `aasa-monitor`, SQLite opens them read-only, and a
/// bare "read-only" error under `Restart=on-failure` restarted the daemon every 5 seconds without saying what to do.
package struct UnwritableState: Sendable, Hashable, CustomStringConvertible {
    /// The first of the database, `-wal` and `-shm` files this process cannot write.
    package var file: String
    /// `root:root`, or the numeric ids when no name is known.
    package var owner: String
    /// The file's permission bits, e.g. `0644`.
    package var mode: String
    /// The user this process runs as.
    package var user: String
    /// The command or action that makes the file writable for `user`.
    package var fix: String

    /// The first of `database` and its `-wal` and `-shm` files that this process may not write, or `nil` when
    /// owner, mode and flags allow every one of them.
    package static func find(database: String) -> UnwritableState? {
        let directory = (database as NSString).deletingLastPathComponent
        let user = name(ofUser: geteuid())
        for file in [database, database + "-wal", database + "-shm"] {
            var status = Glibc.stat()
            guard stat(file, &status) == 0, access(file, W_OK) != 0 else { continue }
            let owner = "\(name(ofUser: status.st_uid)):\(name(ofGroup: status.st_gid))"
            let fix: String
            if status.st_uid != geteuid() {
                fix = "run `chown -R \(user): \(directory)` as root"
            } else if status.st_mode & S_IWUSR == 0 {
                fix = "run `chmod u+w \(file)`"
            } else {
                fix = "clear its immutable flag (`chattr -i \(file)`) or mount \(directory) read-write"
            }
            let mode = "0" + String(status.st_mode & 0o7777, radix: 8)
            return UnwritableState(file: file, owner: owner, mode: mode, user: user, fix: fix)
        }
        return nil
    }

    /// Why SQLite opened `database` read-only: a file `find(database:)` names, else a read-only mount.
    package static func diagnose(database: String) -> UnwritableState {
        if let found = find(database: database) { return found }
        let directory = (database as NSString).deletingLastPathComponent
        return UnwritableState(
            file: database, owner: "-", mode: "-", user: name(ofUser: geteuid()),
            fix: "check that \(directory) is mounted read-write and its files are not immutable (`lsattr`)")
    }

    package var description: String {
        let ownership = owner == "-" ? "" : " (owner \(owner), mode \(mode))"
        return "cannot write the state database file \(file)\(ownership) as user \(user): \(fix); "
            + "then start the daemon again"
    }

    private static func name(ofUser uid: uid_t) -> String {
        guard let entry = getpwuid(uid), let name = entry.pointee.pw_name else { return "\(uid)" }
        return String(cString: name)
    }

    private static func name(ofGroup gid: gid_t) -> String {
        guard let entry = getgrgid(gid), let name = entry.pointee.gr_name else { return "\(gid)" }
        return String(cString: name)
    }
}
