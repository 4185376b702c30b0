/// Reads the bytes of an apple-app-site-association body into a document, the tolerant way Apple does.
///
/// This is the one entry point for a body, whether it comes from a file (`lint`) or from a fetch (the probe):
/// it reports the body-level problems with the same codes either way (`origin.too_large`, `origin.bom`,
/// `origin.signed`, `origin.json`), unwraps a legacy PKCS7 envelope, skips a UTF-8 BOM, and then builds the model,
/// reporting `aasa.type`, `aasa.unknown_key` and `aasa.query_not_string` on the way. It never performs I/O and
/// never crashes on hostile input; see `JSONParser` for the limits.
///
/// ```swift
/// let result = AASAParser.parse(Array(body))
/// if let document = result.document { print(CanonicalJSON.hash(of: document.json)) }
/// ```
public enum AASAParser {
    /// swcd stops reading after 131072 bytes (NSURLErrorDomain -1103); the CDN will not serve a larger file.
    public static let maximumBodySize = 131_072

    /// Parses a whole body. The size check reports but does not stop parsing, so an oversize file still gets
    /// every other finding.
    public static func parse(_ bytes: [UInt8], maximumDepth: Int = 512) -> ParseResult {
        var result = ParseResult(byteCount: bytes.count)
        if bytes.count > maximumBodySize {
            result.findings.append(
                Finding(
                    code: .originTooLarge, severity: .error, path: nil,
                    message: "the body is \(bytes.count) bytes; Apple stops reading after \(maximumBodySize) bytes "
                        + "and rejects the file: remove entries or shorten patterns (substitution variables help)"
                ))
        }

        var json = bytes
        if SignedEnvelope.looksSigned(bytes) {
            do {
                json = try SignedEnvelope.content(of: bytes)
                result.isSigned = true
                result.findings.append(
                    Finding(
                        code: .originSigned, severity: .info, path: nil,
                        message: "legacy PKCS7-signed file (iOS 8); Apple still reads the JSON inside without "
                            + "checking the signature, and plain JSON over HTTPS is enough since iOS 9"
                    ))
            } catch {
                result.findings.append(
                    Finding(
                        code: .originJSON, severity: .error, path: nil,
                        message: "the body is binary but \(error.message); serve plain JSON"
                    ))
                return result
            }
        }

        if json.starts(with: [0xEF, 0xBB, 0xBF]) {
            json.removeFirst(3)
            result.hasByteOrderMark = true
            result.findings.append(
                Finding(
                    code: .originBOM, severity: .warning, path: nil,
                    message: "the body starts with a UTF-8 byte order mark (EF BB BF); save the file as UTF-8 "
                        + "without BOM, since JSON forbids it and Apple's handling of it is undocumented"
                ))
        }

        let value: JSONValue
        do {
            value = try JSONParser(maximumDepth: maximumDepth).parse(json)
        } catch {
            result.jsonError = error
            result.findings.append(
                Finding(
                    code: .originJSON, severity: .error, path: nil,
                    message: "invalid JSON at \(error.description)" + excerpt(of: json, at: error.offset)
                ))
            let lenient = JSONParser(maximumDepth: maximumDepth, allowsTrailingCommas: true)
            if let recovered = try? lenient.parse(json) {
                var builder = DocumentBuilder()
                result.recoveredDocument = builder.build(recovered)
                result.recoveredFindings = DuplicateKeys.findings(in: recovered) + builder.findings
            }
            return result
        }

        var builder = DocumentBuilder()
        result.document = builder.build(value)
        result.findings.append(contentsOf: DuplicateKeys.findings(in: value))
        result.findings.append(contentsOf: builder.findings)
        return result
    }

    /// Convenience for callers holding any byte collection (`Data`, a slice).
    public static func parse(_ bytes: some Collection<UInt8>, maximumDepth: Int = 512) -> ParseResult {
        parse(Array(bytes), maximumDepth: maximumDepth)
    }

    /// Up to 40 bytes around an error, so a person sees the offending text
    /// (an HTML page, a missing comma) without opening the file.
    static func excerpt(of bytes: [UInt8], at offset: Int) -> String {
        guard !bytes.isEmpty else { return " (the body is empty)" }
        let start = max(0, min(offset, bytes.count) - 20)
        let end = min(bytes.count, start + 40)
        // Control characters become spaces and runs of spaces collapse, so indentation does not fill the line.
        var shown: [UInt8] = []
        for byte in bytes[start..<end] {
            let visible = byte <= 0x20 || byte == 0x7F ? UInt8(ascii: " ") : byte
            if visible == UInt8(ascii: " ") && shown.last == visible { continue }
            shown.append(visible)
        }
        let text = String(decoding: shown, as: UTF8.self)
        return "; near \u{201C}\(text)\u{201D}"
    }
}

/// What `AASAParser.parse` found.
public struct ParseResult: Sendable, Hashable {
    /// The model, or `nil` when the body is not JSON (or not an envelope around JSON).
    public var document: AASADocument?
    /// Body-level findings first (`origin.*`), then structural ones (`aasa.duplicate_key`, `aasa.type`,
    /// `aasa.unknown_key`, `aasa.query_not_string`). `AASALint` adds the rest.
    public var findings: [Finding] = []
    /// The body was a PKCS7 envelope; `document` holds the JSON inside it.
    public var isSigned = false
    /// The JSON started with a UTF-8 byte order mark, which was skipped.
    public var hasByteOrderMark = false
    /// The body's size as received.
    public var byteCount: Int
    /// Where the JSON is invalid, when it is.
    public var jsonError: JSONParseError?
    /// When the only problem is trailing commas, the document read as if they were absent. Apple rejects the
    /// file, so this is never `document`; the linter uses it to report the file's other problems in one run.
    public var recoveredDocument: AASADocument?
    /// The parser's structural findings about `recoveredDocument` (not included in `findings`).
    public var recoveredFindings: [Finding] = []

    public init(byteCount: Int) {
        self.byteCount = byteCount
    }

    /// `sha256:…` of the canonical form, the identity of the document's meaning; `nil` without a document.
    public var canonicalHash: String? {
        document.map { CanonicalJSON.hash(of: $0.json) }
    }
}
