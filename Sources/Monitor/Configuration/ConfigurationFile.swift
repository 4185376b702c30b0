import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Reads the configuration file from disk and loads it, for `run`, `check --config`, `status` and `config check`.
///
/// The loader itself is pure; this is the I/O around it: a size cap (a configuration is a few KiB, so
/// `/dev/zero` or a disk image named by mistake is refused), directories refused with the real reason, and
/// `url_file` / `secret_file` read through the same capped reader.
public enum ConfigurationFile {
    /// The largest configuration file accepted.
    public static let maximumSize = 4 << 20
    /// The largest `url_file` / `secret_file` accepted.
    public static let maximumSecretFileSize = 64 << 10

    /// The configuration at `path`, with `environment` for `*_env` keys.
    public static func load(
        path: String, environment: [String: String]
    ) throws(ConfigurationFileError)
        -> MonitorConfiguration
    {
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
        do throws(ConfigurationErrors) {
            return try ConfigurationLoader.load(text: text, fileName: path, environment: environment) { file in
                String(decoding: try read(file, limit: maximumSecretFileSize), as: UTF8.self)
            }
        } catch {
            throw .invalid(error)
        }
    }

    /// The bytes of `path`, at most `limit`; the error names the reason (`No such file or directory`,
    /// `Is a directory`, too large).
    public static func read(_ path: String, limit: Int) throws(FileReadError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileReadError(reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
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
}

/// Why a file could not be read, as `strerror` or the size cap says it.
public struct FileReadError: Error, Sendable, Hashable, CustomStringConvertible {
    public var reason: String
    /// True when the file was readable but longer than the limit.
    public var isTooLarge: Bool

    public init(reason: String, isTooLarge: Bool = false) {
        self.reason = reason
        self.isTooLarge = isTooLarge
    }

    public var description: String { reason }
}

/// A configuration that could not be used: unreadable (a usage problem, exit 2) or invalid (exit 1).
public enum ConfigurationFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file itself could not be read; the reason names why.
    case unreadable(path: String, reason: String)
    /// The file was read and has problems, every one with its line.
    case invalid(ConfigurationErrors)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): "cannot read configuration \(path): \(reason)"
        case .invalid(let errors): errors.description
        }
    }
}
