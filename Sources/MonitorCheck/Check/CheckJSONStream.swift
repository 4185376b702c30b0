import Foundation
import MonitorCore
import MonitorEvaluation

/// `check --json` and `--json-lines` written one domain at a time, so no run holds every report.
///
/// Each domain is encoded once, as soon as it is evaluated, with the interface's one encoder (`MonitorJSON`); the
/// encoded bytes are the compact result that waits for earlier domains. `--json` wraps them in the document
/// `{"domains":[…],"summary":{…}}`, byte for byte what encoding `CheckOutput` whole gives (sorted keys hold at every
/// level: `summary` sorts after `domains`); `--json-lines` writes each on its own line, then one last line
/// `{"summary":{…}}`, the same summary, told from a domain's line by its one key.
package struct CheckJSONStream {
    /// `true` for one object per line (`--json-lines`), `false` for one document (`--json`).
    package let lines: Bool
    /// One encoder for every domain: its settings never change after creation, and encoding does not mutate it.
    private static let encoder = MonitorJSON.encoder()
    private var written = 0

    package init(lines: Bool) {
        self.lines = lines
    }

    /// One domain's report as the JSON object `--json` prints for it (documents are not part of it).
    package static func encode(_ report: DomainReport) throws -> Data {
        MonitorJSON.inert(try encoder.encode(report))
    }

    /// The bytes to write for the next domain's `encoded` report, in the order given.
    package mutating func piece(_ encoded: Data) -> Data {
        defer { written += 1 }
        if lines { return encoded + Data("\n".utf8) }
        return Data((written == 0 ? #"{"domains":["# : ",").utf8) + encoded
    }

    /// The bytes that end the output once every domain is written: the summary, and for `--json` the end.
    package func end(summary: CheckSummary) throws -> Data {
        if lines { return try Self.encoder.encode(["summary": summary]) + Data("\n".utf8) }
        return Data(((written == 0 ? #"{"domains":["# : "") + #"],"summary":"#).utf8)
            + (try Self.encoder.encode(summary)) + Data("}\n".utf8)
    }
}
