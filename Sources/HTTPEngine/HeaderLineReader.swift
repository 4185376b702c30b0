/// The response's header fields, built from the lines libcurl's header callback hands over one at a time.
///
/// libcurl also passes the status line and the blank line ending the headers; a status line starts a new header
/// block (after `100 Continue`, only the final response's headers remain). Only a line right after a blank line
/// (or the first) can be a status line: an `HTTP/…` line in the middle of a block is a malformed header, not a
/// reason to forget the fields before it. A value type apart from `Transfer`, so the fuzz target of issue 26 §2
/// reads hostile header lines without a curl handle.
package struct HeaderLineReader: Sendable {
    /// The fields of the current header block, in arrival order.
    package private(set) var headers = HTTPHeaders()
    /// Whether the next line starts a block (the first line, or the line after a blank one).
    private var atBlockStart = true

    package init() {}

    /// Records one line as libcurl passes it, line ending included.
    package mutating func read(_ line: String) {
        // `\r\n` is one Character (a grapheme cluster), so test `isNewline` rather than "\r" and "\n".
        let trimmed = line.droppingTrailing { $0.isNewline }
        defer { atBlockStart = trimmed.isEmpty }
        if trimmed.hasPrefix("HTTP/") && atBlockStart {
            headers = HTTPHeaders()
        } else if let first = trimmed.first, first == " " || first == "\t", headers.count > 0 {
            // An obsolete folded continuation line (RFC 9112 §5.2): part of the previous value, joined by one space
            // and trimmed like any value (a fuzzer found values ending in blanks). Appended in place: rebuilding the
            // field list per line made a hostile run of folded lines quadratic on the engine thread.
            let continuation = trimmed.droppingLeading { $0 == " " || $0 == "\t" }
                .droppingTrailing { $0 == " " || $0 == "\t" }
            let joined = headers.fields.last?.value.isEmpty == true ? continuation : " " + continuation
            if !continuation.isEmpty { headers.appendToLastValue(joined) }
        } else if let colon = trimmed.firstIndex(of: ":") {
            let name = String(trimmed[..<colon])
            let value = trimmed[trimmed.index(after: colon)...]
                .droppingLeading { $0 == " " || $0 == "\t" }
                .droppingTrailing { $0 == " " || $0 == "\t" }
            headers.append(name, value)
        }
    }
}
