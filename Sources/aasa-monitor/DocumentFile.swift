import AASA
import Foundation

/// Reads an AASA file named on the command line, for `lint`, `match` and `diff`.
enum DocumentFile {
    /// The file's bytes; an unreadable file is a usage error (exit 2) that names the file and the reason.
    static func read(_ path: String) throws(CommandFailure) -> [UInt8] {
        do {
            return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            let reason = (error as NSError).localizedDescription
            throw .usage("cannot read \(path): \(reason)")
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
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(value)
        Swift.print(String(decoding: data, as: UTF8.self))
    }
}
