import Foundation
import MonitorCore
import MonitorEvaluation

#if canImport(Glibc)
    import Glibc
    // `struct stat` and its fields are attributed to whichever C module first included <sys/stat.h>; that varies
    // between builds (MemberImportVisibility then names CoreFoundation or CDispatch), so import every candidate.
    import CoreFoundation
    #if canImport(CDispatch)
        import CDispatch
    #endif
#endif

/// Reads the configuration file from disk and validates it together with everything it refers to, for `run`,
/// SIGHUP, `check --config`, `status` and `config check`: one place, so they cannot disagree.
///
/// The loader itself is pure; this is the I/O around it. Every file (the configuration, `url_file`,
/// `secret_file`, CA files, the app files of `apps`) is opened non-blocking and must be a regular file within a size cap, so a FIFO,
/// `/dev/zero` or a disk image named by mistake is refused at once instead of hanging or filling memory.
package enum ConfigurationFile {
    /// The largest configuration file accepted.
    package static let maximumSize = 4 << 20
    /// The largest `url_file` / `secret_file` accepted.
    package static let maximumSecretFileSize = 64 << 10
    /// The largest CA file accepted (Debian's whole bundle is about 200 KiB).
    package static let maximumCAFileSize = 4 << 20

    /// The configuration at `path`, with `environment` for `*_env` keys; an unset variable is a problem.
    /// `readingApps: false` leaves the app files of `apps` unread (`MonitorConfiguration.appClaimsRead`).
    package static func load(
        path: String, environment: [String: String], readingApps: Bool = true
    ) throws(ConfigurationFileError) -> MonitorConfiguration {
        try check(path: path, environment: environment, unsetVariables: .problem, readingApps: readingApps)
            .configuration
    }

    /// The configuration at `path` and its warnings; `config check` passes `.warning` for unset variables.
    package static func check(
        path: String, environment: [String: String], unsetVariables: ConfigurationSurroundings.UnsetVariables,
        readingApps: Bool = true
    ) throws(ConfigurationFileError) -> LoadedConfiguration {
        let bytes: [UInt8]
        do throws(FileReadError) {
            bytes = try read(path, limit: maximumSize)
        } catch {
            throw .unreadable(path: path, reason: error.reason)
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            let problem = ConfigurationProblem(
                file: path, line: nil, keyPath: "", message: "the file is not UTF-8 text")
            throw .invalid(ConfigurationErrors(problems: [problem]))
        }
        let surroundings = ConfigurationSurroundings(
            environment: environment,
            readFile: { file in
                guard let text = String(validating: try read(file, limit: maximumSecretFileSize), as: UTF8.self) else {
                    throw FileReadError(reason: "the file is not UTF-8 text")
                }
                return text
            },
            caFileProblem: { TrustAnchorFile.problem(at: $0) },
            readApp: { file, appID throws(AppFileProblem) in try ClaimedDomains.configured(path: file, appID: appID) },
            unsetVariables: unsetVariables, readsApps: readingApps)
        do throws(ConfigurationErrors) {
            return try ConfigurationLoader.load(text: text, fileName: path, surroundings: surroundings)
        } catch {
            throw .invalid(error)
        }
    }

    /// The bytes of the regular file `path`, at most `limit`; the error names the reason (`No such file or
    /// directory`, `Too many levels of symbolic links`, not a regular file, too large).
    ///
    /// Opened with `O_NONBLOCK`: opening a FIFO for reading would otherwise wait for a writer forever.
    package static func read(_ path: String, limit: Int) throws(FileReadError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard descriptor >= 0 else { throw FileReadError(reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var status = Glibc.stat()
        guard fstat(descriptor, &status) == 0 else { throw FileReadError(reason: String(cString: strerror(errno))) }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw FileReadError(reason: "not a regular file (\(kind(of: status.st_mode)))")
        }
        guard status.st_size <= limit else {
            throw FileReadError(reason: "larger than \(limit >> 10) KiB", isTooLarge: true)
        }
        return try readAll(descriptor, limit: limit)
    }

    /// Standard input (`-` on the command line), at most `limit` bytes; blocking, as a pipe's reader should be.
    package static func readStandardInput(limit: Int) throws(FileReadError) -> [UInt8] {
        try readAll(0, limit: limit)
    }

    private static func readAll(_ descriptor: Int32, limit: Int) throws(FileReadError) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw FileReadError(reason: String(cString: strerror(errno)))
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<count])
            if bytes.count > limit { throw FileReadError(reason: "larger than \(limit >> 10) KiB", isTooLarge: true) }
        }
    }

    private static func kind(of mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: "a directory"
        case S_IFIFO: "a FIFO"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        default: "not a plain file"
        }
    }
}

/// Why a file could not be read, as `strerror` or the size cap says it.
package struct FileReadError: Error, Sendable, Hashable, CustomStringConvertible {
    package var reason: String
    /// True when the file was readable but longer than the limit.
    package var isTooLarge: Bool

    package init(reason: String, isTooLarge: Bool = false) {
        self.reason = reason
        self.isTooLarge = isTooLarge
    }

    package var description: String { reason }
}

/// A configuration that could not be used: unreadable (a usage problem, exit 2) or invalid (exit 1).
package enum ConfigurationFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file itself could not be read; the reason names why.
    case unreadable(path: String, reason: String)
    /// The file was read and has problems, every one with its line.
    case invalid(ConfigurationErrors)

    package var description: String {
        switch self {
        case .unreadable(let path, let reason): "cannot read configuration \(path): \(reason)"
        case .invalid(let errors): errors.description
        }
    }
}
