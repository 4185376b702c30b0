/// A strict, hand-written JSON parser (RFC 8259) that produces `JSONValue` and precise error positions.
///
/// Foundation's `JSONSerialization` cannot be used here: it silently resolves duplicate keys (so
/// `aasa.duplicate_key` could not be reported), turns numbers into `NSNumber` (losing the literal text), reports
/// errors without a reliable position, and has no nesting limit we control. This parser is iterative over bytes,
/// recursive only per nesting level with a hard `maximumDepth`, so hostile input (100k `[`) fails with an error
/// instead of overflowing the stack. Strings must be valid UTF-8, and `\u` escapes must form valid scalars (a lone
/// surrogate is rejected, as Apple's parser does).
public struct JSONParser: Sendable {
    /// Nesting deeper than this is refused. Real AASA files nest about 6 levels.
    public var maximumDepth: Int
    /// Accept `[1,]` and `{"a":1,}`. Off for real parsing (Apple rejects them); the linter turns it on only to
    /// recover a document from a file with this common mistake, so it can report the file's other problems too.
    public var allowsTrailingCommas: Bool

    public init(maximumDepth: Int = 512, allowsTrailingCommas: Bool = false) {
        self.maximumDepth = maximumDepth
        self.allowsTrailingCommas = allowsTrailingCommas
    }

    /// Parses one JSON text that must span all of `bytes` (whitespace allowed around it).
    public func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        try bytes.withUnsafeBufferPointer { buffer throws(JSONParseError) in
            var reader = Reader(bytes: buffer, maximumDepth: maximumDepth)
            reader.allowsTrailingCommas = allowsTrailingCommas
            do throws(ReaderFailure) {
                reader.skipWhitespace()
                let value = try reader.parseValue(depth: 1)
                reader.skipWhitespace()
                if reader.offset < buffer.count {
                    throw reader.failure("unexpected data after the JSON value")
                }
                return value
            } catch {
                throw JSONParseError(message: error.message, offset: error.offset, in: buffer)
            }
        }
    }
}

/// Why and where a JSON text is invalid.
public struct JSONParseError: Error, Sendable, Hashable {
    public var message: String
    /// Byte offset of the problem from the start of the JSON text (0-based).
    public var offset: Int
    /// 1-based line of the problem.
    public var line: Int
    /// 1-based column, counted in Unicode scalars (continuation bytes are not counted).
    public var column: Int

    public init(message: String, offset: Int, line: Int, column: Int) {
        self.message = message
        self.offset = offset
        self.line = line
        self.column = column
    }

    init(message: String, offset: Int, in bytes: UnsafeBufferPointer<UInt8>) {
        var line = 1
        var column = 1
        for index in 0..<min(offset, bytes.count) {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        self.init(message: message, offset: offset, line: line, column: column)
    }

    /// `line 3, column 5 (byte 27): expected ',' or '}' after an object member`.
    public var description: String {
        "line \(line), column \(column) (byte \(offset)): \(message)"
    }
}

/// Internal error carrying only the offset; line and column are computed once, at the top.
private struct ReaderFailure: Error {
    var message: String
    var offset: Int
}

/// The cursor over the bytes. `~Copyable` is not needed: it is a local value, never shared.
private struct Reader {
    let bytes: UnsafeBufferPointer<UInt8>
    let maximumDepth: Int
    var allowsTrailingCommas = false
    var offset = 0

    init(bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    func failure(_ message: String, at position: Int? = nil) -> ReaderFailure {
        ReaderFailure(message: message, offset: position ?? offset)
    }

    var current: UInt8? { offset < bytes.count ? bytes[offset] : nil }

    mutating func skipWhitespace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x20, 0x09, 0x0A, 0x0D: offset += 1
            default: return
            }
        }
    }

    /// Describes the byte at the cursor for an error message (`'x'`, `byte 0xFF`, `end of input`).
    func describeCurrent() -> String {
        guard let byte = current else { return "end of input" }
        if byte >= 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    mutating func parseValue(depth: Int) throws(ReaderFailure) -> JSONValue {
        guard let byte = current else { throw failure("expected a value, found end of input") }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject(depth: depth)
        case UInt8(ascii: "["): return try parseArray(depth: depth)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw failure("expected a value, found \(describeCurrent())")
        }
    }

    mutating func expectLiteral(_ literal: StaticString) throws(ReaderFailure) {
        let start = offset
        for expected in UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount) {
            guard current == expected else { throw failure("invalid literal, expected '\(literal)'", at: start) }
            offset += 1
        }
    }

    mutating func checkDepth(_ depth: Int) throws(ReaderFailure) {
        if depth > maximumDepth {
            throw failure("nesting deeper than \(maximumDepth) levels")
        }
    }

    mutating func parseObject(depth: Int) throws(ReaderFailure) -> JSONValue {
        try checkDepth(depth)
        offset += 1  // {
        var members: [JSONMember] = []
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            offset += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else {
                if current == UInt8(ascii: "}") {
                    guard allowsTrailingCommas else { throw failure("trailing comma before '}'") }
                    offset += 1
                    return .object(members)
                }
                throw failure("expected a string key, found \(describeCurrent())")
            }
            let key = try parseString()
            skipWhitespace()
            guard current == UInt8(ascii: ":") else {
                throw failure("expected ':' after key \"\(key)\", found \(describeCurrent())")
            }
            offset += 1
            skipWhitespace()
            let value = try parseValue(depth: depth + 1)
            members.append(JSONMember(key: key, value: value))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): offset += 1
            case UInt8(ascii: "}"):
                offset += 1
                return .object(members)
            default:
                throw failure("expected ',' or '}' after the value of \"\(key)\", found \(describeCurrent())")
            }
        }
    }

    mutating func parseArray(depth: Int) throws(ReaderFailure) -> JSONValue {
        try checkDepth(depth)
        offset += 1  // [
        var elements: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            offset += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            if current == UInt8(ascii: "]") {
                guard allowsTrailingCommas else { throw failure("trailing comma before ']'") }
                offset += 1
                return .array(elements)
            }
            elements.append(try parseValue(depth: depth + 1))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): offset += 1
            case UInt8(ascii: "]"):
                offset += 1
                return .array(elements)
            default:
                throw failure("expected ',' or ']' after an array element, found \(describeCurrent())")
            }
        }
    }

    mutating func parseNumber() throws(ReaderFailure) -> String {
        let start = offset
        if current == UInt8(ascii: "-") { offset += 1 }
        guard let first = current, isDigit(first) else { throw failure("expected a digit in number") }
        offset += 1
        if first == UInt8(ascii: "0"), let next = current, isDigit(next) {
            throw failure("leading zero in number", at: start)
        }
        while let byte = current, isDigit(byte) { offset += 1 }
        if current == UInt8(ascii: ".") {
            offset += 1
            guard let byte = current, isDigit(byte) else { throw failure("expected a digit after '.'") }
            while let byte = current, isDigit(byte) { offset += 1 }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            offset += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { offset += 1 }
            guard let byte = current, isDigit(byte) else { throw failure("expected a digit in exponent") }
            while let byte = current, isDigit(byte) { offset += 1 }
        }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)
    }

    func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    /// Parses a string starting at its opening quote. Runs without escapes are copied in one piece after UTF-8
    /// validation, so a 10 MB string costs one pass.
    mutating func parseString() throws(ReaderFailure) -> String {
        let start = offset
        offset += 1  // "
        var result: [UInt8] = []
        var runStart = offset
        while true {
            guard offset < bytes.count else { throw failure("unterminated string", at: start) }
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\"") {
                if result.isEmpty {
                    let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[runStart..<offset]), as: UTF8.self)
                    offset += 1
                    return text
                }
                result.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<offset]))
                offset += 1
                return String(decoding: result, as: UTF8.self)
            } else if byte == UInt8(ascii: "\\") {
                result.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<offset]))
                try parseEscape(into: &result)
                runStart = offset
            } else if byte < 0x20 {
                throw failure("control character 0x\(String(byte, radix: 16, uppercase: true)) in string; escape it")
            } else if byte < 0x80 {
                offset += 1
            } else {
                offset += try validUTF8SequenceLength(at: offset)
            }
        }
    }

    /// Length of the valid UTF-8 sequence at `position`, or a failure naming the byte (overlongs and encoded
    /// surrogates are invalid, per the Unicode standard's table 3-7).
    func validUTF8SequenceLength(at position: Int) throws(ReaderFailure) -> Int {
        let lead = bytes[position]
        let length: Int
        var lower: UInt8 = 0x80
        var upper: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; lower = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; upper = 0x9F
        case 0xF0: length = 4; lower = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; upper = 0x8F
        default:
            throw failure("invalid UTF-8 byte 0x\(String(lead, radix: 16, uppercase: true))", at: position)
        }
        for index in 1..<length {
            let next = position + index
            guard next < bytes.count else { throw failure("truncated UTF-8 sequence", at: position) }
            let byte = bytes[next]
            let (low, high) = index == 1 ? (lower, upper) : (UInt8(0x80), UInt8(0xBF))
            guard byte >= low && byte <= high else { throw failure("invalid UTF-8 sequence", at: position) }
        }
        return length
    }

    mutating func parseEscape(into result: inout [UInt8]) throws(ReaderFailure) {
        let start = offset
        offset += 1  // backslash
        guard let byte = current else { throw failure("unterminated escape", at: start) }
        offset += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): result.append(byte)
        case UInt8(ascii: "b"): result.append(0x08)
        case UInt8(ascii: "f"): result.append(0x0C)
        case UInt8(ascii: "n"): result.append(0x0A)
        case UInt8(ascii: "r"): result.append(0x0D)
        case UInt8(ascii: "t"): result.append(0x09)
        case UInt8(ascii: "u"):
            let unit = try parseHex4(escapeStart: start)
            let scalarValue: UInt32
            switch unit {
            case 0xD800...0xDBFF:
                guard current == UInt8(ascii: "\\"), offset + 1 < bytes.count, bytes[offset + 1] == UInt8(ascii: "u")
                else { throw failure("lone high surrogate \\u\(hex(unit)) without a low surrogate", at: start) }
                let lowStart = offset
                offset += 2
                let low = try parseHex4(escapeStart: lowStart)
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw failure("high surrogate \\u\(hex(unit)) followed by \\u\(hex(low))", at: start)
                }
                scalarValue = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
            case 0xDC00...0xDFFF:
                throw failure("lone low surrogate \\u\(hex(unit))", at: start)
            default:
                scalarValue = UInt32(unit)
            }
            guard let scalar = Unicode.Scalar(scalarValue) else { throw failure("invalid escape", at: start) }
            result.append(contentsOf: String(Character(scalar)).utf8)
        default:
            throw failure("invalid escape '\\\(Character(Unicode.Scalar(byte)))'", at: start)
        }
    }

    func hex(_ unit: UInt16) -> String {
        let digits = String(unit, radix: 16, uppercase: false)
        return String(repeating: "0", count: 4 - digits.count) + digits
    }

    mutating func parseHex4(escapeStart: Int) throws(ReaderFailure) -> UInt16 {
        var value: UInt16 = 0
        for _ in 0..<4 {
            guard let byte = current else { throw failure("unterminated \\u escape", at: escapeStart) }
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure("invalid hex digit in \\u escape", at: escapeStart)
            }
            value = value << 4 | UInt16(digit)
            offset += 1
        }
        return value
    }
}
