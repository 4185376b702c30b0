import Foundation
import GRDB

/// Hex digests as the store keeps them: the bytes, not their text.
///
/// A document hash (`sha256:` and 64 hex digits) is 71 bytes as text and 32 as bytes; every run holds two, and a run
/// key (32 hex digits) is 16 bytes. Values that are not exactly `prefix` and lowercase hex of even length (test
/// names such as `sha256:a`, the empty key of converted runs) stay text, so every value reads back as it was
/// written. One column must always be written through the same `StoredHex`: comparisons (`=`, `IN`) see a blob and
/// its text as different values, which is why migration `v4-lean-history` converted the older text rows.
struct StoredHex: Sendable {
    /// What the text form starts with before its hex digits: `sha256:` for document hashes, nothing for run keys.
    let prefix: String

    static let documentHash = StoredHex(prefix: "sha256:")
    static let runKey = StoredHex(prefix: "")

    /// The column value for `text`: its bytes when it is `prefix` + lowercase hex, else the text itself.
    func value(_ text: String?) -> DatabaseValue {
        guard let text else { return .null }
        guard let bytes = bytes(of: text) else { return text.databaseValue }
        return Data(bytes).databaseValue
    }

    /// The text form of a column value written by `value(_:)` (or by a version that wrote text).
    func text(_ value: DatabaseValue) -> String? {
        switch value.storage {
        case .null: return nil
        case .blob(let data):
            var text = prefix
            text.reserveCapacity(prefix.utf8.count + data.count * 2)
            for byte in data {
                text.append(Self.digits[Int(byte >> 4)])
                text.append(Self.digits[Int(byte & 0x0f)])
            }
            return text
        case .string(let string): return string
        case .int64(let number): return String(number)
        case .double(let number): return String(number)
        }
    }

    private static let digits = Array("0123456789abcdef")

    private func bytes(of text: String) -> [UInt8]? {
        let utf8 = text.utf8
        guard utf8.starts(with: prefix.utf8) else { return nil }
        let hex = utf8.dropFirst(prefix.utf8.count)
        guard !hex.isEmpty, hex.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(hex.count / 2)
        var high: UInt8?
        for character in hex {
            let nibble: UInt8
            switch character {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = character - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = character - UInt8(ascii: "a") + 10
            default: return nil
            }
            if let first = high {
                bytes.append(first << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        return bytes
    }
}
