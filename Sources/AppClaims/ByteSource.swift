/// Random access to the bytes of one file, so that a multi-gigabyte executable is read by ranges: only its
/// headers, load commands and code signature are ever copied into memory.
///
/// The Mach-O reader asks for small ranges (a header, the load commands, one blob); each implementation checks
/// that the range lies inside its `count` before it reads.
public protocol ByteSource {
    /// The size of the file in bytes.
    var count: UInt64 { get }
    /// The bytes in `range`; throws `truncated` when the range runs past `count`.
    func bytes(in range: Range<UInt64>) throws(AppClaimsError) -> [UInt8]
}

extension ByteSource {
    /// The `length` bytes at `offset`, checked against the source's size without overflowing.
    func bytes(at offset: UInt64, length: UInt64, what: @autoclosure () -> String) throws(AppClaimsError) -> [UInt8] {
        let (end, overflow) = offset.addingReportingOverflow(length)
        guard !overflow, end <= count else {
            throw AppClaimsError(
                .truncated,
                "\(what()) (\(length) bytes at offset \(offset)) runs past the end of the file (\(count) bytes)")
        }
        return try bytes(in: offset..<end)
    }
}

/// A file already in memory: tests, small entitlements files, a ZIP entry read whole.
public struct InMemoryBytes: ByteSource {
    public let storage: [UInt8]

    public init(_ bytes: [UInt8]) { storage = bytes }

    public var count: UInt64 { UInt64(storage.count) }

    public func bytes(in range: Range<UInt64>) throws(AppClaimsError) -> [UInt8] {
        guard range.upperBound <= count else {
            throw AppClaimsError(.truncated, "bytes \(range) run past the end of the file (\(count) bytes)")
        }
        return Array(storage[Int(range.lowerBound)..<Int(range.upperBound)])
    }
}

/// A window onto another source: one slice of a universal binary, addressed from the slice's own start.
struct ByteWindow<Base: ByteSource>: ByteSource {
    let base: Base
    let offset: UInt64
    let count: UInt64

    func bytes(in range: Range<UInt64>) throws(AppClaimsError) -> [UInt8] {
        guard range.upperBound <= count else {
            throw AppClaimsError(.truncated, "bytes \(range) run past the end of the slice (\(count) bytes)")
        }
        return try base.bytes(in: (offset + range.lowerBound)..<(offset + range.upperBound))
    }
}

/// The parts of a file that a stream has delivered so far: what the ZIP reader keeps of an executable it inflates.
///
/// A read of a range it does not hold throws `missingBytes` with the range, so the streaming reader learns what
/// to keep next (the load commands once the header is known, the signature once the load commands are).
struct SparseBytes: ByteSource {
    let count: UInt64
    /// Kept pieces by start offset; they never overlap.
    private(set) var pieces: [(start: UInt64, bytes: [UInt8])] = []

    init(count: UInt64) { self.count = count }

    /// Total bytes kept, for the cap on what a stream may keep.
    var keptCount: Int { pieces.reduce(0) { $0 + $1.bytes.count } }

    mutating func keep(_ bytes: [UInt8], at start: UInt64) {
        guard !bytes.isEmpty else { return }
        // Chunks arrive in order: extend the last piece when this one touches or overlaps its end.
        if let last = pieces.indices.last {
            let lastStart = pieces[last].start
            let lastEnd = lastStart + UInt64(pieces[last].bytes.count)
            if lastStart <= start, start <= lastEnd {
                let overlap = Int(lastEnd - start)
                if overlap < bytes.count { pieces[last].bytes.append(contentsOf: bytes[overlap...]) }
                return
            }
        }
        pieces.append((start, bytes))
    }

    func contains(_ range: Range<UInt64>) -> Bool {
        pieces.contains { $0.start <= range.lowerBound && range.upperBound <= $0.start + UInt64($0.bytes.count) }
    }

    func bytes(in range: Range<UInt64>) throws(AppClaimsError) -> [UInt8] {
        guard range.upperBound <= count else {
            throw AppClaimsError(.truncated, "bytes \(range) run past the end of the file (\(count) bytes)")
        }
        for piece in pieces
        where piece.start <= range.lowerBound && range.upperBound <= piece.start + UInt64(piece.bytes.count) {
            let from = Int(range.lowerBound - piece.start)
            return Array(piece.bytes[from..<(from + range.count)])
        }
        throw AppClaimsError.missing(range)
    }
}
