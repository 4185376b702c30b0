import Foundation

/// One daemon per state directory: an exclusive `flock` on `daemon.lock` inside it, held for the life of the process.
///
/// Two daemons on one database would both check every domain and both alert (issue 35 §6: a second daemon started,
/// checked, and only a busy port stopped it, after it had opened the database). The kernel drops the lock when the
/// process ends however it ends, SIGKILL included, so a stale lock never blocks a restart. The file holds the
/// holder's pid, so the refusal can name it.
package final class StateDirectoryLock: Sendable {
    /// The lock file's name inside the state directory.
    package static let fileName = "daemon.lock"

    private let descriptor: Int32

    /// Takes the lock on `directory`, or throws naming the daemon that holds it.
    package init(directory: String) throws(StateDirectoryLockError) {
        let path = (directory as NSString).appendingPathComponent(Self.fileName)
        // Readable by all (it holds a pid), so a lock left by another user (a from-source run as root) can still be
        // taken read-only: the database's own check then names the files to hand over (`UnwritableState`).
        var descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        if descriptor < 0, errno == EACCES { descriptor = open(path, O_RDONLY | O_CLOEXEC) }
        guard descriptor >= 0 else {
            throw StateDirectoryLockError(
                message: "cannot open \(path) to lock the state directory: \(String(cString: strerror(errno))); "
                    + "make the directory writable by the user running the daemon")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let failure = errno
            let holder = Self.pid(readFrom: descriptor)
            close(descriptor)
            guard failure == EWOULDBLOCK else {
                throw StateDirectoryLockError(
                    message: "cannot lock \(path): \(String(cString: strerror(failure)))")
            }
            throw StateDirectoryLockError(
                message: "another daemon (\(holder.map { "pid \($0)" } ?? "pid unknown")) uses the state directory "
                    + "\(directory); stop it first, or give this one a state_dir of its own")
        }
        // Read-only (another user's file) the pid is not written; the lock holds all the same.
        let text = "\(getpid())\n"
        if ftruncate(descriptor, 0) == 0 { _ = text.withCString { pwrite(descriptor, $0, strlen($0), 0) } }
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    private static func pid(readFrom descriptor: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = pread(descriptor, &buffer, buffer.count, 0)
        guard count > 0 else { return nil }
        return Int32(String(decoding: buffer[..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}

/// Why the state directory cannot be locked, naming the holder where there is one.
package struct StateDirectoryLockError: Error, Sendable, CustomStringConvertible {
    package var message: String
    package var description: String { message }
}
