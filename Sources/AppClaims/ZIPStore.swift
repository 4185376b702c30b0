import Foundation
import ZIPFoundation

/// An `.ipa` (a ZIP archive) read in place with ZIPFoundation: nothing is unpacked to disk.
///
/// Entries are inflated in memory through `Archive.extract(_:consumer:)`, and every consumer counts what it
/// receives: a small file stops at its cap, an executable keeps only the ranges the Mach-O reader asks for, and
/// no entry may inflate past the size its header declares. A deflate bomb (gigabytes of zeros in a few
/// megabytes) therefore stops at the first cap it reaches. Entry names with `..` or an absolute path are refused
/// when the archive is opened, though nothing is written: an archive that carries them was made to attack.
struct ZIPStore: BundleStore {
    /// More entries than an app has; the central directory is not walked past it. Indexing 100,000 empty entries
    /// took 6 s and 168 MB of a debug build (issue 32 §8); 50,000 costs half that before the refusal.
    static let maximumEntries = 50_000
    /// Executables are streamed, never held; this bounds how long a stream can run (about seconds per GiB).
    static let maximumExecutableSize: UInt64 = 8 << 30
    /// What an executable's stream may keep: load commands, SuperBlob index and entitlements blobs.
    static let maximumKeptBytes = 64 << 20
    /// What all reads of one archive may inflate together, every entry and every pass counted. One pass over
    /// each executable is the rule, but a universal binary whose slices point backwards needs a pass per slice
    /// (up to 4 of an 8 GiB executable): the budget stops that at the size of one largest executable.
    static let inflateBudget: UInt64 = 8 << 30
    /// Inflation buffer: large enough that the first chunk holds a Mach-O header and its load commands.
    static let chunkSize = 256 << 10

    private let archive: Archive
    private let inflated: InflateCounter
    private let entries: [String: Entry]
    private let directories: [String: Set<String>]

    /// Opens `path`, checking first that it is a ZIP archive at all (ZIPFoundation would otherwise scan the whole
    /// file backwards for an end-of-central-directory record), then indexing and checking every entry name.
    init(path: String, inflateBudget: UInt64 = ZIPStore.inflateBudget) throws(AppClaimsError) {
        inflated = InflateCounter(budget: inflateBudget)
        let file = try FileByteSource(path: path)
        // The end-of-central-directory record (22 bytes and a comment of at most 65535) ends the file.
        let tailLength = min(file.count, 22 + 65_535)
        let tail = try file.bytes(in: (file.count - tailLength)..<file.count)
        let head = try file.bytes(in: 0..<min(4, file.count))
        let signature: [UInt8] = [0x50, 0x4b, 0x05, 0x06]
        let hasEnd =
            tail.count >= 22 && (0...(tail.count - 4)).contains { tail[$0..<($0 + 4)].elementsEqual(signature) }
        guard head.starts(with: [0x50, 0x4b]), hasEnd else {
            throw AppClaimsError(
                .notZIP,
                "not a ZIP archive (no " + (hasEnd ? "local file header" : "end-of-central-directory record")
                    + ")")
        }
        do {
            archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .read)
        } catch {
            throw AppClaimsError(.notZIP, "not a readable ZIP archive (\(error))")
        }
        var entries: [String: Entry] = [:]
        var directories: [String: Set<String>] = [:]
        var count = 0
        for entry in archive {
            count += 1
            guard count <= Self.maximumEntries else {
                throw AppClaimsError(
                    .tooLarge, "has more than \(Self.maximumEntries) entries, more than an app has; not read further")
            }
            let name = entry.path
            try Self.checkName(name)
            let components = name.split(separator: "/").map(String.init)
            // Record every folder on the way, so folders exist whether or not the archive lists them.
            for depth in 0..<components.count {
                let parent = components[0..<depth].joined(separator: "/")
                if depth < components.count - 1 || entry.type == .directory {
                    directories[parent, default: []].insert(components[depth])
                }
            }
            let key = components.joined(separator: "/")
            if entry.type == .file { entries[key] = entries[key] ?? entry }
        }
        self.entries = entries
        self.directories = directories
    }

    /// Refuses names that would escape a folder if unpacked: `..` components, absolute or drive paths.
    static func checkName(_ name: String) throws(AppClaimsError) {
        let components = name.split(omittingEmptySubsequences: false) { $0 == "/" || $0 == "\\" }
        let absolute = name.hasPrefix("/") || name.hasPrefix("\\") || (name.count >= 2 && name.dropFirst().first == ":")
        guard !absolute, !components.contains("..") else {
            throw AppClaimsError(
                .unsafeEntryName,
                "entry '\(escaped(name))' points outside the archive (\(absolute ? "an absolute path" : "..")); "
                    + "refusing the archive")
        }
        // Every folder on an entry's way is recorded by its whole path: a name 30,000 folders deep would cost
        // gigabytes of keys. No app nests anywhere near this.
        guard name.utf8.count <= maximumNameBytes, components.count <= maximumNameDepth else {
            throw AppClaimsError(
                .tooLarge,
                "entry '\(escaped(String(name.prefix(80))))…' is \(name.utf8.count) bytes and \(components.count) folders "
                    + "deep (at most \(maximumNameBytes) and \(maximumNameDepth)); no app has such names")
        }
    }

    /// The longest entry name and the deepest nesting an archive may hold.
    static let maximumNameBytes = 1_024
    static let maximumNameDepth = 64

    /// A name for an error line: control characters escaped.
    static func escaped(_ name: String) -> String {
        name.unicodeScalars.map {
            $0.properties.generalCategory == .control ? "\\u{\(String($0.value, radix: 16))}" : String($0)
        }
        .joined()
    }

    func isFile(_ path: String) -> Bool { entries[path] != nil }

    func folders(in directory: String) -> [String] { directories[directory].map { $0.sorted() } ?? [] }

    func read(_ path: String, limit: Int) throws(AppClaimsError) -> [UInt8] {
        guard let entry = entries[path] else { throw AppClaimsError(.incompleteBundle, "is not in the archive") }
        guard entry.uncompressedSize <= UInt64(limit) else {
            throw AppClaimsError(
                .tooLarge, "declares \(entry.uncompressedSize) bytes; over \(limit) bytes are not read")
        }
        var bytes: [UInt8] = []
        do {
            _ = try archive.extract(entry, bufferSize: Self.chunkSize, skipCRC32: false) { chunk in
                try inflated.add(chunk.count)
                guard bytes.count + chunk.count <= limit, bytes.count + chunk.count <= Int(entry.uncompressedSize)
                else { throw StreamStop.overflow }
                bytes.append(contentsOf: chunk)
            }
        } catch StreamStop.overflow {
            throw AppClaimsError(
                .tooLarge,
                "inflates past the \(entry.uncompressedSize) bytes its header declares (a deflate bomb?); not read")
        } catch StreamStop.budget {
            throw inflated.exhausted()
        } catch {
            throw AppClaimsError(.malformed, "cannot be inflated (\(error))")
        }
        return bytes
    }

    func slices(ofExecutable path: String) throws(AppClaimsError) -> [MachOSlice] {
        guard let entry = entries[path] else { throw AppClaimsError(.incompleteBundle, "is not in the archive") }
        let declared = entry.uncompressedSize
        guard declared <= Self.maximumExecutableSize else {
            throw AppClaimsError(
                .tooLarge, "declares \(declared) bytes; executables over \(Self.maximumExecutableSize) are not read")
        }
        var stream = ExecutableStream(declared: declared)
        // Each pass keeps every range asked for so far; a pass ends early once the reader has what it needs.
        // Ranges are asked for in file order (header, load commands, signature), so one pass is the rule; a
        // later pass is needed only when a structure points backwards.
        for _ in 0..<4 {
            do {
                _ = try archive.extract(entry, bufferSize: Self.chunkSize, skipCRC32: true) { chunk in
                    try inflated.add(chunk.count)
                    try stream.consume(chunk)
                }
            } catch StreamStop.done {
            } catch StreamStop.overflow {
                throw AppClaimsError(
                    .tooLarge, "inflates past the \(declared) bytes its header declares (a deflate bomb?); not read")
            } catch StreamStop.kept {
                throw AppClaimsError(
                    .tooLarge, "asks to keep more than \(Self.maximumKeptBytes) bytes of headers and signature")
            } catch StreamStop.again {
            } catch StreamStop.budget {
                throw inflated.exhausted()
            } catch let error as AppClaimsError {
                throw error
            } catch {
                throw AppClaimsError(.malformed, "cannot be inflated (\(error))")
            }
            if let outcome = stream.outcome { return try outcome.get() }
            if !stream.needsAnotherPass {
                // The stream ended without the reader finishing: the entry is shorter than it declares, or the
                // last range completed at the very end.
                guard stream.position == declared else {
                    throw AppClaimsError(
                        .truncated, "inflates to \(stream.position) bytes, fewer than the \(declared) it declares")
                }
                stream.attempt()
                if let outcome = stream.outcome { return try outcome.get() }
            }
            stream.restart()
        }
        throw AppClaimsError(.malformed, "its headers point back and forth too often to be streamed")
    }
}

/// How a consumer closure stops ZIPFoundation's extraction early (it throws to stop).
private enum StreamStop: Error {
    /// The reader has its answer (or its error).
    case done
    /// More bytes than the entry declares: a bomb.
    case overflow
    /// The reader needs bytes already streamed past: read again.
    case again
    /// The kept ranges exceed `maximumKeptBytes`.
    case kept
    /// The archive's reads together passed `ZIPStore.inflateBudget`.
    case budget
}

/// What one archive's reads have inflated so far, against its budget. A class: `BundleStore`'s reads are not
/// mutating, and every read of the archive counts against the one total.
private final class InflateCounter {
    let budget: UInt64
    private(set) var bytes: UInt64 = 0

    init(budget: UInt64) { self.budget = budget }

    func add(_ count: Int) throws {
        bytes += UInt64(count)
        guard bytes <= budget else { throw StreamStop.budget }
    }

    /// The error of the read that passed the budget (the walker names the entry).
    func exhausted() -> AppClaimsError {
        AppClaimsError(
            .tooLarge,
            "reading it would inflate more than "
                + (budget >= 1 << 30 ? "\(budget >> 30) GiB" : "\(budget) bytes") + " of this archive in all, every "
                + "entry and every pass counted; an app needs one pass per executable, so this archive is not read "
                + "further: export it again from Xcode, or check the app folder or its executable instead")
    }
}

/// One executable streaming through: keeps the ranges the Mach-O reader asks for, re-asks it whenever a range
/// is complete, and remembers every range across passes.
private struct ExecutableStream {
    let declared: UInt64
    var wanted: [Range<UInt64>]
    var sparse: SparseBytes
    var position: UInt64 = 0
    /// Where the chunk being consumed starts: bytes before it are gone unless kept.
    var chunkStart: UInt64 = 0
    var outcome: Result<[MachOSlice], AppClaimsError>?
    var needsAnotherPass = false

    init(declared: UInt64) {
        self.declared = declared
        wanted = [0..<min(declared, UInt64(ZIPStore.chunkSize))]
        sparse = SparseBytes(count: declared)
    }

    mutating func restart() {
        sparse = SparseBytes(count: declared)
        position = 0
        chunkStart = 0
        needsAnotherPass = false
    }

    mutating func consume(_ chunk: Data) throws {
        chunkStart = position
        position += UInt64(chunk.count)
        guard position <= declared else { throw StreamStop.overflow }
        while true {
            var completed = false
            for range in Self.merged(wanted) where range.lowerBound < position && range.upperBound > chunkStart {
                let from = max(range.lowerBound, chunkStart)
                let to = min(range.upperBound, position)
                guard !sparse.contains(from..<to) else { continue }
                let lower = chunk.startIndex + Int(from - chunkStart)
                sparse.keep([UInt8](chunk[lower..<(lower + Int(to - from))]), at: from)
                if to == range.upperBound { completed = true }
            }
            guard sparse.keptCount <= ZIPStore.maximumKeptBytes else { throw StreamStop.kept }
            guard completed else { return }
            attempt()
            if outcome != nil { throw StreamStop.done }
            if needsAnotherPass { throw StreamStop.again }
            // A range just asked for may lie in this very chunk: keep it before the chunk is gone.
        }
    }

    /// Runs the reader on what is kept: an answer, or a new range to keep.
    mutating func attempt() {
        do {
            outcome = .success(try MachOReader.slices(of: sparse))
        } catch  where error.kind == .missingBytes {
            guard let range = error.missingRange else {
                outcome = .failure(AppClaimsError(.malformed, "the streaming reader asked for nothing"))
                return
            }
            if !wanted.contains(range) { wanted.append(range) }
            // Bytes already streamed past and not kept need another pass; bytes ahead will come.
            if range.lowerBound < chunkStart, !sparse.contains(range) { needsAnotherPass = true }
        } catch {
            outcome = .failure(error)
        }
    }

    /// `ranges` sorted and with overlaps joined, so a byte is kept once.
    static func merged(_ ranges: [Range<UInt64>]) -> [Range<UInt64>] {
        var result: [Range<UInt64>] = []
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = result.last, range.lowerBound <= last.upperBound {
                result[result.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                result.append(range)
            }
        }
        return result
    }
}
