/// Reads fixed-size integers from a buffer that has already been bounds-checked as a whole, in either byte order.
///
/// Every field read goes through `uint32(at:)` / `uint64(at:)`, which check the offset again: a wrong size
/// computation upstream becomes a `truncated` error, never an out-of-range trap.
struct BinaryCursor {
    let bytes: [UInt8]
    let bigEndian: Bool
    /// Names the structure in errors ("load command 3", "the SuperBlob").
    let what: String

    func uint32(at offset: Int) throws(AppClaimsError) -> UInt32 {
        guard offset >= 0, offset <= bytes.count - 4 else {
            throw AppClaimsError(.truncated, "\(what) is cut short: no 4 bytes at offset \(offset) of \(bytes.count)")
        }
        var value: UInt32 = 0
        for index in 0..<4 {
            let byte = UInt32(bytes[offset + (bigEndian ? index : 3 - index)])
            value = value << 8 | byte
        }
        return value
    }

    func uint64(at offset: Int) throws(AppClaimsError) -> UInt64 {
        guard offset >= 0, offset <= bytes.count - 8 else {
            throw AppClaimsError(.truncated, "\(what) is cut short: no 8 bytes at offset \(offset) of \(bytes.count)")
        }
        var value: UInt64 = 0
        for index in 0..<8 {
            let byte = UInt64(bytes[offset + (bigEndian ? index : 7 - index)])
            value = value << 8 | byte
        }
        return value
    }

    /// A fixed-width, NUL-padded name (`segname`, `sectname`: 16 bytes).
    func name(at offset: Int, width: Int = 16) throws(AppClaimsError) -> String {
        guard offset >= 0, offset <= bytes.count - width else {
            throw AppClaimsError(.truncated, "\(what) is cut short: no name at offset \(offset) of \(bytes.count)")
        }
        let field = bytes[offset..<(offset + width)]
        let end = field.firstIndex(of: 0) ?? field.endIndex
        return String(decoding: field[offset..<end], as: UTF8.self)
    }
}

/// `0x` and eight hex digits, as the headers write magic numbers.
func hex32(_ value: UInt32) -> String {
    let digits = String(value, radix: 16)
    return "0x" + String(repeating: "0", count: max(0, 8 - digits.count)) + digits
}
