import AASA
import Foundation
import MonitorCheck
import MonitorCore
import MonitorDaemon
import MonitorEvaluation

#if canImport(Glibc)
    import Glibc
#endif

/// Reads an AASA file named on the command line, for `lint`, `match` and `diff`.
enum DocumentFile {
    /// Larger inputs are refused before they fill memory (`/dev/zero`, a disk image named by mistake). It is far
    /// above Apple's 131072-byte limit, so an oversize file is still read and linted (`origin.too_large`).
    static let maximumFileSize = 16 << 20

    /// The file's bytes; an unreadable file is a usage error (exit 2) that names the file and the reason.
    ///
    /// `-` (or `/dev/stdin`) reads standard input, so `curl … | aasa-monitor lint -` works. Any other path must be
    /// a regular file, opened non-blocking: a FIFO or a device is refused at once instead of hanging.
    static func read(_ path: String) throws(CommandFailure) -> [UInt8] {
        do {
            if path == "-" || path == "/dev/stdin" {
                return try ConfigurationFile.readStandardInput(limit: maximumFileSize)
            }
            return try ConfigurationFile.read(path, limit: maximumFileSize)
        } catch  where error.isTooLarge {
            throw .usage(
                "\(path) is larger than \(maximumFileSize >> 20) MiB; an apple-app-site-association file must "
                    + "not exceed \(AASAParser.maximumBodySize) bytes")
        } catch {
            throw .usage("cannot read \(path): \(error.reason)")
        }
    }

    /// The parsed document; a file with no usable document (not JSON, not signed JSON) is a usage error (exit 2)
    /// whose message carries the parser's own findings.
    static func document(_ path: String) throws(CommandFailure) -> (document: AASADocument, result: ParseResult) {
        let result = AASAParser.parse(try read(path))
        guard let document = result.document else {
            let reasons = result.findings.filter { $0.severity == .error }.map(\.message).joined(separator: "; ")
            throw .usage("\(path) is not an apple-app-site-association document: \(reasons)")
        }
        return (document, result)
    }
}

/// The one JSON encoder for `--json` output: sorted keys so output is stable for scripts and diffs.
enum JSONOutput {
    static func print<Value: Encodable>(_ value: Value) throws {
        let data = MonitorJSON.inert(try MonitorJSON.encoder().encode(value))
        Swift.print(String(decoding: data, as: UTF8.self))
    }
}
