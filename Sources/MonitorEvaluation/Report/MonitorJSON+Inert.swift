import Foundation

extension MonitorJSON {
    /// Encoded JSON with the characters a terminal acts on, which `JSONEncoder` leaves raw, written as `\uXXXX`
    /// escapes: DEL, the C1 controls and the bidi controls (U+202E shows `gpj.exe` as `exe.jpg`). The same JSON
    /// value, so a program reads what it read before; a person running `--json` in a terminal sees them inert.
    /// Outside strings JSON has only ASCII, so every such character is inside a string.
    public static func inert(_ encoded: Data) -> Data {
        let text = String(decoding: encoded, as: UTF8.self)
        guard text.unicodeScalars.contains(where: isActive) else { return encoded }
        var output = ""
        output.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            if isActive(scalar) {
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                output.unicodeScalars.append(scalar)
            }
        }
        return Data(output.utf8)
    }

    private static func isActive(_ scalar: Unicode.Scalar) -> Bool {
        (0x7F...0x9F).contains(scalar.value) || scalar.isBidiControl
    }
}

extension Unicode.Scalar {
    /// The invisible characters that reorder text (U+202E shows `gpj.exe` as `exe.jpg`): the bidi embeddings,
    /// overrides and isolates, the left-to-right and right-to-left marks and the Arabic letter mark.
    public var isBidiControl: Bool {
        let value = value
        return value == 0x061C || value == 0x200E || value == 0x200F || (0x202A...0x202E).contains(value)
            || (0x2066...0x2069).contains(value)
    }
}
