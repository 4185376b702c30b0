import Foundation

/// Event IDs: `evt_` + a 26-character ULID (48-bit millisecond time, 80 random bits, Crockford base32).
///
/// Time-ordered so outbox rows and receiver logs sort by creation; the randomness is injected so tests are
/// deterministic and the core stays pure.
public enum EventID {
    private static let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ")

    /// A new ID for an event created at `time`, with 80 bits from `generator`.
    public static func make(at time: Date, using generator: inout some RandomNumberGenerator) -> String {
        let milliseconds = UInt64(max(0, time.timeIntervalSince1970 * 1000)) & 0xFFFF_FFFF_FFFF
        let high = UInt64.random(in: 0...UInt64(0xFFFF), using: &generator)
        let low = UInt64.random(in: 0...UInt64.max, using: &generator)
        // 128 bits as (time:48 | random:80), emitted 5 bits at a time from the top (26 × 5 = 130: two pad bits).
        let upper = (milliseconds << 16) | high
        var characters: [Character] = []
        characters.reserveCapacity(26)
        for index in 0..<26 {
            let bitOffset = index * 5 - 2
            characters.append(alphabet[Int(fiveBits(upper: upper, lower: low, offset: bitOffset))])
        }
        return "evt_" + String(characters)
    }

    /// The 5 bits starting at `offset` (0 = most significant of the 128-bit value; negative = leading pad zeros).
    private static func fiveBits(upper: UInt64, lower: UInt64, offset: Int) -> UInt64 {
        var value: UInt64 = 0
        for bit in offset..<(offset + 5) {
            value <<= 1
            if bit < 0 { continue }
            let word = bit < 64 ? upper : lower
            value |= (word >> UInt64(63 - bit % 64)) & 1
        }
        return value
    }
}
