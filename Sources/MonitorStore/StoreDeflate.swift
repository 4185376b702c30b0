import Foundation
import StoreZlib

/// Raw deflate (no zlib header or checksum: SQLite pages have their own integrity, and every byte counts on a
/// 230-byte value) with a preset dictionary, through zlib.
///
/// The parameters are chosen for CPU as much as size: `domain_state` is encoded on every check. An 8 KiB window
/// holds the dictionary and the largest value; a small hash table (memLevel 6) is cheaper to set up per value
/// than the default and costs no bytes on values this short. Never lower `windowBits` below what rows were
/// written with: inflating needs a window at least as large.
enum StoreDeflate {
    static let windowBits: Int32 = 13
    static let memoryLevel: Int32 = 6
    static let level: Int32 = 6
    /// No stored JSON value comes near this; a blob that inflates beyond it is damaged, not large.
    static let maximumInflatedSize = 64 << 20

    static func deflate(_ input: Data, dictionary: [UInt8]) throws -> Data {
        var stream = z_stream()
        var status = deflateInit2_(
            &stream, level, Z_DEFLATED, -windowBits, memoryLevel, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
            Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else { throw StoreCodingError.compression(message(stream, status)) }
        defer { deflateEnd(&stream) }
        status = dictionary.withUnsafeBufferPointer { deflateSetDictionary(&stream, $0.baseAddress, uInt($0.count)) }
        guard status == Z_OK else { throw StoreCodingError.compression(message(stream, status)) }
        var output = Data(count: Int(deflateBound(&stream, uLong(input.count))))
        status = input.withUnsafeBytes { source in
            output.withUnsafeMutableBytes { target in
                stream.next_in = UnsafeMutablePointer(mutating: source.bindMemory(to: Bytef.self).baseAddress)
                stream.avail_in = uInt(source.count)
                stream.next_out = target.bindMemory(to: Bytef.self).baseAddress
                stream.avail_out = uInt(target.count)
                return StoreZlib.deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { throw StoreCodingError.compression(message(stream, status)) }
        output.count = Int(stream.total_out)
        return output
    }

    static func inflate(_ input: Data, dictionary: [UInt8]) throws -> Data {
        var stream = z_stream()
        var status = inflateInit2_(&stream, -windowBits, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else { throw StoreCodingError.corrupt(message(stream, status)) }
        defer { inflateEnd(&stream) }
        status = dictionary.withUnsafeBufferPointer { inflateSetDictionary(&stream, $0.baseAddress, uInt($0.count)) }
        guard status == Z_OK else { throw StoreCodingError.corrupt(message(stream, status)) }
        // Never more than the limit, however large (or damaged) the input: the limit bounds the memory asked for.
        var output = Data(count: min(max(1_024, input.count * 8), maximumInflatedSize))
        return try input.withUnsafeBytes { source in
            stream.next_in = UnsafeMutablePointer(mutating: source.bindMemory(to: Bytef.self).baseAddress)
            stream.avail_in = uInt(source.count)
            while true {
                let written = Int(stream.total_out)
                status = output.withUnsafeMutableBytes { target in
                    stream.next_out = target.bindMemory(to: Bytef.self).baseAddress.map { $0 + written }
                    stream.avail_out = uInt(target.count - written)
                    return StoreZlib.inflate(&stream, Z_NO_FLUSH)
                }
                switch status {
                case Z_STREAM_END:
                    guard stream.avail_in == 0 else {
                        throw StoreCodingError.corrupt("\(stream.avail_in) bytes follow the end of the stream")
                    }
                    output.count = Int(stream.total_out)
                    return output
                case Z_OK, Z_BUF_ERROR:
                    if stream.avail_out == 0 {
                        guard output.count < maximumInflatedSize else {
                            throw StoreCodingError.corrupt("it inflates beyond \(maximumInflatedSize) bytes")
                        }
                        output.count = min(output.count * 2, maximumInflatedSize)
                    } else if status == Z_BUF_ERROR {
                        // No progress with room to write: the input ran out before the last block ended.
                        throw StoreCodingError.corrupt("the stream ends before its last block")
                    }
                default:
                    throw StoreCodingError.corrupt(message(stream, status))
                }
            }
        }
    }

    /// zlib's own message for a failed call, or its status code when it gave none.
    private static func message(_ stream: z_stream, _ status: Int32) -> String {
        stream.msg.map { String(cString: $0) } ?? "zlib status \(status)"
    }
}
