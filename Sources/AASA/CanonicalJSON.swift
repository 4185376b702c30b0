import Crypto

/// The canonical text of a JSON value and its SHA-256: the identity of a document's meaning.
///
/// Apple's CDN re-serializes the JSON it fetched, so bytes, key order and whitespace must never count as a
/// change; array order must, because rule order decides matches. The canonical form therefore:
/// - sorts object keys by their UTF-8 bytes (the same as by Unicode scalar value, and independent of locale);
/// - keeps only the last of duplicate keys, which is the member Foundation's parser (and so Apple) uses;
/// - writes no whitespace;
/// - escapes only what JSON requires (`"`, `\` and control characters, with the short escapes where they exist
///   and lower-case `\u00xx` otherwise) and writes everything else as raw UTF-8, so each string has one spelling;
/// - writes every number as its exact decimal value in one spelling (see `CanonicalNumber`), because Apple
///   parses numbers into `NSNumber`, where `1`, `1.0` and `1e0` are the same value.
public enum CanonicalJSON {
    /// The canonical UTF-8 text of `value`.
    public static func bytes(of value: JSONValue) -> [UInt8] {
        var output: [UInt8] = []
        write(value, into: &output)
        return output
    }

    /// The canonical text of `value` as a string (for messages and diffs).
    public static func text(of value: JSONValue) -> String {
        String(decoding: bytes(of: value), as: UTF8.self)
    }

    /// `sha256:<64 lower-case hex digits>` of the canonical text.
    public static func hash(of value: JSONValue) -> String {
        hash(canonicalBytes: bytes(of: value))
    }

    /// `sha256:<64 lower-case hex digits>` of canonical bytes already written by `bytes(of:)`: callers that need
    /// both the text and the hash serialize once.
    public static func hash(canonicalBytes: [UInt8]) -> String {
        let digest = SHA256.hash(data: canonicalBytes)
        let hexDigits = Array("0123456789abcdef".utf8)
        var hex: [UInt8] = []
        hex.reserveCapacity(64)
        for byte in digest {
            hex.append(hexDigits[Int(byte >> 4)])
            hex.append(hexDigits[Int(byte & 0x0F)])
        }
        return "sha256:" + String(decoding: hex, as: UTF8.self)
    }

    /// The members of an object with duplicates resolved (last wins) and keys sorted by UTF-8 bytes.
    static func resolvedMembers(_ members: [JSONMember]) -> [JSONMember] {
        JSONMember.resolved(members).sorted { lhs, rhs in lhs.key.utf8.lexicographicallyPrecedes(rhs.key.utf8) }
    }

    /// A JSON string literal in canonical spelling.
    static func quoted(_ string: String) -> String {
        var output: [UInt8] = []
        writeString(string, into: &output)
        return String(decoding: output, as: UTF8.self)
    }

    private static func write(_ value: JSONValue, into output: inout [UInt8]) {
        switch value {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let flag): output.append(contentsOf: (flag ? "true" : "false").utf8)
        case .number(let literal): output.append(contentsOf: CanonicalNumber.text(of: literal).utf8)
        case .string(let string): writeString(string, into: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                write(element, into: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            for (index, member) in resolvedMembers(members).enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                writeString(member.key, into: &output)
                output.append(UInt8(ascii: ":"))
                write(member.value, into: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    private static func writeString(_ string: String, into output: inout [UInt8]) {
        let hexDigits = Array("0123456789abcdef".utf8)
        output.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x08: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0x0A: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x00..<0x20:
                output.append(contentsOf: Array("\\u00".utf8))
                output.append(hexDigits[Int(byte >> 4)])
                output.append(hexDigits[Int(byte & 0x0F)])
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}
