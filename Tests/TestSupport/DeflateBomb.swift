/// A ZIP archive of one deflated entry that inflates to any number of zeros at deflate's best ratio (about
/// 1032:1), built bit by bit rather than by compressing the zeros.
///
/// The deflate stream (RFC 1951) is one dynamic-Huffman block whose literal/length code has three symbols —
/// literal 0 (`10`), end of block (`11`), length 258 (`0`) — and whose distance code gives distance 1 the code `0`:
/// after one literal zero, every further 258 zeros cost two zero bits, so the middle of the stream is zero bytes.
enum DeflateBomb {
    /// The archive bytes, with the true CRC-32 of the zeros: a valid archive, only a large one once inflated.
    /// `declaring` replaces the uncompressed size written in the headers (a lying header), when given.
    static func zip(entry name: String, zeros: Int, declaring declared: Int? = nil) -> [UInt8] {
        let compressed = deflate(zeros: zeros)
        let checksum = crc32(zeros: zeros)
        let nameBytes = Array(name.utf8)
        var out = ByteWriter(bigEndian: false)
        out.u32(0x0403_4b50)
        out.u16(20)
        out.u16(0x0800)
        out.u16(8)
        out.u16(0)
        out.u16(0x21)
        out.u32(checksum)
        out.u32(UInt32(compressed.count))
        out.u32(UInt32(truncatingIfNeeded: declared ?? zeros))
        out.u16(UInt16(nameBytes.count))
        out.u16(0)
        out.bytes += nameBytes
        out.bytes += compressed
        let directory = out.bytes.count
        out.u32(0x0201_4b50)
        out.u16(0x031e)
        out.u16(20)
        out.u16(0x0800)
        out.u16(8)
        out.u16(0)
        out.u16(0x21)
        out.u32(checksum)
        out.u32(UInt32(compressed.count))
        out.u32(UInt32(truncatingIfNeeded: declared ?? zeros))
        out.u16(UInt16(nameBytes.count))
        out.u16(0)
        out.u16(0)
        out.u16(0)
        out.u16(0)
        out.u32(0o100644 << 16)
        out.u32(0)
        out.bytes += nameBytes
        let directorySize = out.bytes.count - directory
        out.u32(0x0605_4b50)
        out.u16(0)
        out.u16(0)
        out.u16(1)
        out.u16(1)
        out.u32(UInt32(directorySize))
        out.u32(UInt32(directory))
        out.u16(0)
        return out.bytes
    }

    /// The CRC-32 of `count` zero bytes in O(log count): zlib's `crc32_combine` trick, applying the operator
    /// "append one zero bit" raised to the power `8 × count` as a GF(2) matrix, squared repeatedly.
    static func crc32(zeros count: Int) -> UInt32 {
        func times(_ matrix: [UInt32], _ vector: UInt32) -> UInt32 {
            var result: UInt32 = 0
            var vector = vector
            var index = 0
            while vector != 0 {
                if vector & 1 != 0 { result ^= matrix[index] }
                vector >>= 1
                index += 1
            }
            return result
        }
        func square(_ matrix: [UInt32]) -> [UInt32] { (0..<32).map { times(matrix, matrix[$0]) } }
        // The operator for one zero bit: shift right, xor the polynomial when the low bit falls out.
        var odd = [UInt32](repeating: 0, count: 32)
        odd[0] = 0xedb8_8320
        for index in 1..<32 { odd[index] = 1 << UInt32(index - 1) }
        var even = square(odd)  // two zero bits
        odd = square(even)  // four zero bits
        // Pre- and post-conditioning of CRC-32: start from 0xffffffff, invert at the end.
        var crc: UInt32 = 0xffff_ffff
        var length = count
        while length > 0 {
            even = square(odd)
            if length & 1 != 0 { crc = times(even, crc) }
            length >>= 1
            guard length > 0 else { break }
            odd = square(even)
            if length & 1 != 0 { crc = times(odd, crc) }
            length >>= 1
        }
        return ~crc
    }

    /// A raw deflate stream of `zeros` zero bytes (at least 1).
    static func deflate(zeros: Int) -> [UInt8] {
        var bits = BitWriter()
        bits.write(1, count: 1)  // BFINAL
        bits.write(2, count: 2)  // BTYPE = dynamic Huffman
        bits.write(286 - 257, count: 5)  // HLIT: literal/length codes 0…285
        bits.write(2 - 1, count: 5)  // HDIST: distance codes 0 and 1
        bits.write(18 - 4, count: 4)  // HCLEN: code-length codes up to symbol 1 in the permuted order
        // Code-length code lengths in the order 16 17 18 0 8 7 9 6 10 5 11 4 12 3 13 2 14 1: 18 → 1, 2 → 2, 1 → 2.
        for length in [0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 2] { bits.write(UInt32(length), count: 3) }
        // Canonical code-length codes: 18 = `0`, 1 = `10`, 2 = `11` (Huffman codes go most significant bit first).
        func huffman(_ code: UInt32, _ length: Int) { bits.writeHuffman(code, count: length) }
        func lengthTwo() { huffman(0b11, 2) }
        func lengthOne() { huffman(0b10, 2) }
        func zeroRun(_ run: Int) {
            huffman(0, 1)
            bits.write(UInt32(run - 11), count: 7)
        }
        lengthTwo()  // literal 0
        zeroRun(138)
        zeroRun(117)  // literals 1…255
        lengthTwo()  // end of block (256)
        zeroRun(28)  // lengths 257…284
        lengthOne()  // length 258 (285)
        lengthOne()  // distance code 0
        lengthOne()  // distance code 1
        // Data: literal 0 is `10`, end of block `11`, length 258 `0`, distance 1 `0`.
        huffman(0b10, 2)
        let remaining = zeros - 1
        bits.zeros(2 * (remaining / 258))
        for _ in 0..<(remaining % 258) { huffman(0b10, 2) }
        huffman(0b11, 2)
        return bits.finish()
    }
}

/// Packs bits least significant first, as deflate does.
struct BitWriter {
    private(set) var bytes: [UInt8] = []
    private var current: UInt32 = 0
    private var used = 0

    mutating func write(_ value: UInt32, count: Int) {
        for index in 0..<count { push(UInt8((value >> UInt32(index)) & 1)) }
    }

    /// A Huffman code: its most significant bit goes first.
    mutating func writeHuffman(_ code: UInt32, count: Int) {
        for index in stride(from: count - 1, through: 0, by: -1) { push(UInt8((code >> UInt32(index)) & 1)) }
    }

    /// `count` zero bits, whole bytes at a time.
    mutating func zeros(_ count: Int) {
        var left = count
        while left > 0, used != 0 {
            push(0)
            left -= 1
        }
        bytes += [UInt8](repeating: 0, count: left / 8)
        for _ in 0..<(left % 8) { push(0) }
    }

    private mutating func push(_ bit: UInt8) {
        current |= UInt32(bit) << UInt32(used)
        used += 1
        if used == 8 {
            bytes.append(UInt8(current))
            current = 0
            used = 0
        }
    }

    mutating func finish() -> [UInt8] {
        if used > 0 { bytes.append(UInt8(current)) }
        current = 0
        used = 0
        return bytes
    }
}
