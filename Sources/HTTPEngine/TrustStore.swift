internal import CCurl
internal import CurlShims

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Turns each `TrustConfiguration` into the one CA file libcurl reads, writing combined bundles once.
///
/// Confined to the engine thread. Each combined bundle gets a fresh, unique path: libcurl caches the parsed
/// store by path for 24 hours (`CURLOPT_CA_CACHE_TIMEOUT`), so reusing a path for different contents would give
/// stale trust. Files it wrote are removed at shutdown.
final class TrustStore {
    private var bundles: [TrustConfiguration: String] = [:]
    private var written: [String] = []
    private lazy var systemBundle: String = Self.defaultCAFile()

    /// The CA file for `trust`, building a combined bundle on first use.
    func caFile(for trust: TrustConfiguration, url: String) throws(HTTPEngineError) -> String {
        switch trust {
        case .system:
            return systemBundle
        case .only(let caFile):
            return caFile
        case .systemAnd(let extraCAFile):
            if let path = bundles[trust] { return path }
            let path = try writeCombinedBundle(extraCAFile: extraCAFile, url: url)
            bundles[trust] = path
            return path
        }
    }

    /// Deletes the combined bundles this store wrote.
    func removeFiles() {
        for path in written {
            try? FileManager.default.removeItem(atPath: path)
        }
        written.removeAll()
    }

    private func writeCombinedBundle(extraCAFile: String, url: String) throws(HTTPEngineError) -> String {
        let combined: Data
        do {
            var data = try Self.read(systemBundle, role: "the system CA bundle")
            data.append(contentsOf: Array("\n".utf8))
            data.append(try Self.read(extraCAFile, role: "the extra CA file"))
            combined = data
        } catch {
            throw HTTPEngineError(code: .trustStore, url: url, message: error.message)
        }
        let directory = ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp"
        let pid = ProcessInfo.processInfo.processIdentifier
        let path = "\(directory)/aasa-monitor-ca-\(pid)-\(UUID().uuidString).pem"
        do {
            try combined.write(to: URL(filePath: path), options: .atomic)
        } catch {
            throw HTTPEngineError(
                code: .trustStore, url: url, message: "cannot write combined CA bundle '\(path)': \(error)")
        }
        written.append(path)
        return path
    }

    /// A file's bytes, or a one-line reason naming the file (never Foundation's debug text of the error).
    private static func read(_ path: String, role: String) throws(TrustFileError) -> Data {
        guard FileManager.default.fileExists(atPath: path) else {
            throw TrustFileError(message: "\(role) '\(path)' does not exist")
        }
        guard FileManager.default.isReadableFile(atPath: path), let data = FileManager.default.contents(atPath: path)
        else {
            throw TrustFileError(message: "\(role) '\(path)' cannot be read (check its permissions)")
        }
        return data
    }

    private struct TrustFileError: Error {
        var message: String
    }

    /// The bundle libcurl was built to use (`CURLINFO_CAINFO`, 7.84+), or Debian's path if it reports none.
    private static func defaultCAFile() -> String {
        let fallback = "/etc/ssl/certs/ca-certificates.crt"
        guard let easy = curl_easy_init() else { return fallback }
        defer { curl_easy_cleanup(easy) }
        var value: UnsafePointer<CChar>?
        guard aasa_curl_easy_getinfo_string(easy, CURLINFO_CAINFO, &value) == CURLE_OK, let value else {
            return fallback
        }
        return String(cString: value)
    }
}
