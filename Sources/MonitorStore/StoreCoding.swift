import Foundation

/// How JSON columns are encoded: JSON (times as seconds since 1970, lossless for `Date`; keys sorted), deflated
/// with a preset dictionary of the store's own vocabulary behind one format byte.
///
/// A ready domain's report shrinks from ~1,270 to ~230 bytes and its state from ~460 to ~130: without the
/// dictionary deflate gets ~540 and ~240, because one value is too short to find its own repetitions. Rows written
/// before compression (and by the v1/v2 migrations) are plain JSON, which starts with `{`, `[` or `"`; they are
/// read as they are, so no migration rewrites them.
package enum StoreCoding {
    /// The first byte of a compressed value: raw deflate against `StoreDictionary.bytes`. A future dictionary gets
    /// the next byte; this one must keep reading the rows already written.
    package static let deflatedFormat: UInt8 = 1

    package static func encode(_ value: some Encodable) throws -> Data {
        let json = try plainEncoder().encode(value)
        return Data([deflatedFormat]) + (try StoreDeflate.deflate(json, dictionary: StoreDictionary.bytes))
    }

    package static func decode<Value: Decodable>(_ type: Value.Type, from data: Data) throws -> Value {
        try plainDecoder().decode(type, from: json(of: data))
    }

    /// Decodes a column once written with another dialect too: plain JSON that this dialect cannot read is tried
    /// with `legacy` (alert states were written with `MonitorJSON`, its RFC 3339 times, before compression).
    package static func decode<Value: Decodable>(
        _ type: Value.Type, from data: Data, legacy: @autoclosure () -> JSONDecoder
    ) throws -> Value {
        let json = try json(of: data)
        do {
            return try plainDecoder().decode(type, from: json)
        } catch {
            guard data.first != deflatedFormat, let value = try? legacy().decode(type, from: json) else { throw error }
            return value
        }
    }

    /// The JSON text of a stored value: itself when it is plain JSON, else the inflated text.
    package static func json(of data: Data) throws -> Data {
        guard let first = data.first else { throw StoreCodingError.empty }
        switch first {
        case UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "\""):
            return data
        case deflatedFormat:
            return try StoreDeflate.inflate(data.dropFirst(), dictionary: StoreDictionary.bytes)
        default:
            throw StoreCodingError.unknownFormat(first)
        }
    }

    static func plainEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        // Seconds since 1970 to the millisecond: `.secondsSince1970` writes the Double that `Date` (counted from
        // 2001) converts to, 17 digits of float noise even for a time already rounded, which deflate cannot shrink
        // (measured: 795 against 748-774 bytes per first check). The milliseconds are the time columns' own
        // (`StoredInstant`, so a run's report and its `first_seen` agree); divided by 1000, the Double nearest that
        // decimal prints as it (`1795437667.614`). `.secondsSince1970` reads both.
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            // A time from outside that no millisecond count holds (`StoredInstant(exactly:)`) stays as it is.
            guard let instant = StoredInstant(exactly: date) else {
                try container.encode(date.timeIntervalSince1970)
                return
            }
            try container.encode(Double(instant.milliseconds) / 1000)
        }
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }

    static func plainDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }
}

/// Why a stored value could not be turned back into JSON; the caller names the column and the domain.
package enum StoreCodingError: Error, CustomStringConvertible, Equatable {
    case empty
    case unknownFormat(UInt8)
    case corrupt(String)
    case compression(String)

    package var description: String {
        switch self {
        case .empty:
            "the stored value is empty"
        case .unknownFormat(let byte):
            "the stored value has format byte \(byte), which this version does not know (written by a newer "
                + "aasa-monitor? run that version, or remove the state directory to start over)"
        case .corrupt(let reason):
            "the stored value is not a valid compressed value (\(reason)); the database file is damaged: restore "
                + "it from a backup or remove the state directory to start over"
        case .compression(let reason):
            "zlib could not compress the value (\(reason))"
        }
    }
}
