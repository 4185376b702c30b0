/// Decoding for `percentEncoded: false`, where Apple compares patterns with the decoded URL text (the decoding
/// itself runs in place in `PreparedURL`'s scratch buffer).
enum PercentDecoding {
    /// The value of one hex digit of a `%XX` escape, or `nil` when the byte is not one.
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
