/// Finds the entitlements of every slice of a Mach-O file, thin or universal, reading only headers, load commands
/// and the code signature.
///
/// Layouts, from Apple's public headers and the code-signing blob format:
/// - `mach-o/fat.h`: a universal file starts (big-endian) with `FAT_MAGIC` `0xcafebabe` (`fat_arch`, 32-bit
///   offsets, 20 bytes each) or `FAT_MAGIC_64` `0xcafebabf` (`fat_arch_64`, 64-bit offsets, 32 bytes each), then
///   `nfat_arch` entries of (cputype, cpusubtype, offset, size, align); each slice is a thin Mach-O file.
/// - `mach-o/loader.h`: a thin file starts with `MH_MAGIC` `0xfeedface` (32-bit, 28-byte header) or `MH_MAGIC_64`
///   `0xfeedfacf` (64-bit, 32-byte header), in the file's byte order (`MH_CIGAM`/`MH_CIGAM_64` when swapped);
///   `ncmds` load commands of `sizeofcmds` bytes follow. `LC_CODE_SIGNATURE` (`0x1d`) is a `linkedit_data_command`
///   (`dataoff`, `datasize`); `LC_SEGMENT` (`0x1`) / `LC_SEGMENT_64` (`0x19`) carry `section`/`section_64` records,
///   where a simulator build keeps `__TEXT,__entitlements` (XML) and `__TEXT,__ents_der` (DER).
/// - The code signature is a big-endian SuperBlob (`CSMAGIC_EMBEDDED_SIGNATURE` `0xfade0cc0`: magic, length,
///   count, then `count` (type, offset) slots). Slot 5 is the XML entitlements blob (`CSMAGIC_EMBEDDED_ENTITLEMENTS`
///   `0xfade7171`), slot 7 the DER one (`CSMAGIC_EMBEDDED_DER_ENTITLEMENTS` `0xfade7172`); a blob is magic, length
///   (header included), payload.
///
/// Every count and offset comes from the file, so each is checked before use: against the file's (or slice's)
/// size, against the structure that holds it, and against a bound no real app reaches (`Limits`). A violation is
/// a typed `AppClaimsError` whose reason names the structure and the numbers.
enum MachOReader {
    /// Bounds far above real apps, far below what would cost time or memory.
    enum Limits {
        /// Universal files have one slice per architecture: a handful.
        static let fatArchitectures: UInt32 = 64
        /// Real executables have a few hundred load commands.
        static let loadCommands: UInt32 = 8_192
        static let loadCommandBytes: UInt32 = 16 << 20
        /// A SuperBlob has a handful of slots (code directories, requirements, entitlements, CMS).
        static let superBlobSlots: UInt32 = 64
        /// Entitlements are a few kilobytes; a few megabytes is already absurd.
        static let entitlementsBytes: UInt64 = 4 << 20
    }

    static let fatMagic: UInt32 = 0xcafe_babe
    static let fatMagic64: UInt32 = 0xcafe_babf
    static let machMagic: UInt32 = 0xfeed_face
    static let machMagic64: UInt32 = 0xfeed_facf
    static let superBlobMagic: UInt32 = 0xfade_0cc0
    static let entitlementsMagic: UInt32 = 0xfade_7171
    static let derEntitlementsMagic: UInt32 = 0xfade_7172
    static let loadCommandSegment: UInt32 = 0x1
    static let loadCommandSegment64: UInt32 = 0x19
    static let loadCommandCodeSignature: UInt32 = 0x1d
    static let entitlementsSlot: UInt32 = 5
    static let derEntitlementsSlot: UInt32 = 7

    /// Whether `prefix` (the file's first four bytes) is a Mach-O or universal magic number.
    static func isMachO(_ prefix: [UInt8]) -> Bool {
        guard prefix.count >= 4 else { return false }
        let big = BinaryCursor(bytes: prefix, bigEndian: true, what: "")
        guard let magic = try? big.uint32(at: 0) else { return false }
        return [fatMagic, fatMagic64, machMagic, machMagic64, machMagic.byteSwapped, machMagic64.byteSwapped]
            .contains(magic)
    }

    /// Every slice with what its signature (or simulator section) carries.
    static func slices(of source: some ByteSource) throws(AppClaimsError) -> [MachOSlice] {
        guard source.count >= 4 else {
            throw AppClaimsError(.truncated, "\(source.count) bytes is too short for a Mach-O header")
        }
        let magic = try BinaryCursor(bytes: source.bytes(in: 0..<4), bigEndian: true, what: "the header").uint32(at: 0)
        if magic == fatMagic || magic == fatMagic64 {
            return try fatSlices(of: source, wide: magic == fatMagic64)
        }
        return [try thinSlice(of: source, label: nil)]
    }

    private static func fatSlices(of source: some ByteSource, wide: Bool) throws(AppClaimsError) -> [MachOSlice] {
        let header = try source.bytes(at: 0, length: 8, what: "the universal (fat) header")
        let count = try BinaryCursor(bytes: header, bigEndian: true, what: "the fat header").uint32(at: 4)
        guard count >= 1 else { throw AppClaimsError(.malformed, "the universal (fat) header lists no architecture") }
        guard count <= Limits.fatArchitectures else {
            throw AppClaimsError(
                .tooLarge,
                "the universal (fat) header claims \(count) architectures; at most \(Limits.fatArchitectures) are read")
        }
        let entrySize: UInt64 = wide ? 32 : 20
        let tableEnd = 8 + UInt64(count) * entrySize
        let table = BinaryCursor(
            bytes: try source.bytes(at: 8, length: tableEnd - 8, what: "the fat architecture table"),
            bigEndian: true, what: "the fat architecture table")
        var slices: [MachOSlice] = []
        for index in 0..<Int(count) {
            let base = index * Int(entrySize)
            let cpuType = try table.uint32(at: base)
            let cpuSubtype = try table.uint32(at: base + 4)
            let offset = wide ? try table.uint64(at: base + 8) : UInt64(try table.uint32(at: base + 8))
            let size = wide ? try table.uint64(at: base + 16) : UInt64(try table.uint32(at: base + 12))
            let label = CPUName.name(cpuType: cpuType, cpuSubtype: cpuSubtype)
            let (end, overflow) = offset.addingReportingOverflow(size)
            guard !overflow, end <= source.count else {
                throw AppClaimsError(
                    .outOfBounds,
                    "fat slice \(index) (\(label)) spans bytes \(offset) to \(overflow ? "beyond 2^64" : String(end)), "
                        + "past the end of the file (\(source.count) bytes)")
            }
            guard offset >= tableEnd else {
                throw AppClaimsError(
                    .outOfBounds, "fat slice \(index) (\(label)) starts at byte \(offset), inside the fat header")
            }
            do {
                slices.append(try thinSlice(of: ByteWindow(base: source, offset: offset, count: size), label: label))
            } catch  where error.kind != .missingBytes {
                throw AppClaimsError(error.kind, "fat slice \(index) (\(label)): \(error.reason)")
            }
        }
        return slices
    }

    /// Header, load commands, then the signature's entitlements or the simulator section.
    private static func thinSlice(of source: some ByteSource, label: String?) throws(AppClaimsError) -> MachOSlice {
        guard source.count >= 28 else {
            throw AppClaimsError(.truncated, "\(source.count) bytes is too short for a Mach-O header (28 bytes)")
        }
        let first = try source.bytes(in: 0..<4)
        let littleMagic = try BinaryCursor(bytes: first, bigEndian: false, what: "the header").uint32(at: 0)
        let bigEndian: Bool
        let wide: Bool
        switch littleMagic {
        case machMagic: (bigEndian, wide) = (false, false)
        case machMagic64: (bigEndian, wide) = (false, true)
        case machMagic.byteSwapped: (bigEndian, wide) = (true, false)
        case machMagic64.byteSwapped: (bigEndian, wide) = (true, true)
        default:
            let big = (try? BinaryCursor(bytes: first, bigEndian: true, what: "").uint32(at: 0)) ?? 0
            throw AppClaimsError(.unknownFormat, "not a Mach-O file (magic \(hex32(big)))")
        }
        let headerSize: UInt64 = wide ? 32 : 28
        let header = BinaryCursor(
            bytes: try source.bytes(at: 0, length: headerSize, what: "the Mach-O header"), bigEndian: bigEndian,
            what: "the Mach-O header")
        let cpuType = try header.uint32(at: 4)
        let cpuSubtype = try header.uint32(at: 8)
        let architecture = label ?? CPUName.name(cpuType: cpuType, cpuSubtype: cpuSubtype)
        let commandCount = try header.uint32(at: 16)
        let commandBytes = try header.uint32(at: 20)
        guard commandCount <= Limits.loadCommands, commandBytes <= Limits.loadCommandBytes else {
            throw AppClaimsError(
                .tooLarge,
                "the Mach-O header claims \(commandCount) load commands in \(commandBytes) bytes; at most "
                    + "\(Limits.loadCommands) in \(Limits.loadCommandBytes) bytes are read")
        }
        guard headerSize + UInt64(commandBytes) <= source.count else {
            throw AppClaimsError(
                .outOfBounds,
                "the load commands (\(commandBytes) bytes after the header) run past the end of the file "
                    + "(\(source.count) bytes)")
        }
        let commands = try LoadCommands.parse(
            BinaryCursor(
                bytes: try source.bytes(at: headerSize, length: UInt64(commandBytes), what: "the load commands"),
                bigEndian: bigEndian, what: "the load commands"),
            count: commandCount, wide: wide, fileSize: source.count)

        var payloads: [EntitlementsPayload] = []
        if let signature = commands.codeSignature {
            payloads += try CodeSignature.entitlements(in: source, at: signature.offset, size: signature.size)
        }
        for section in commands.entitlementSections {
            guard UInt64(section.size) <= Limits.entitlementsBytes else {
                throw AppClaimsError(
                    .tooLarge,
                    "section __TEXT,\(section.name) is \(section.size) bytes; entitlements over "
                        + "\(Limits.entitlementsBytes) bytes are not read")
            }
            let bytes = try source.bytes(
                at: section.offset, length: section.size, what: "section __TEXT,\(section.name)")
            payloads.append(EntitlementsPayload(format: section.format, bytes: bytes))
        }
        return MachOSlice(architecture: architecture, payloads: payloads)
    }
}

/// One slice of a Mach-O file and the entitlements it carries, in every form found.
struct MachOSlice: Sendable, Hashable {
    var architecture: String
    /// Signature blobs first (XML, then DER), then simulator sections; empty when unsigned and without a section.
    var payloads: [EntitlementsPayload]

    /// The payload to believe: XML before DER, the signature before the simulator section.
    var preferred: EntitlementsPayload? {
        payloads.first { $0.format == .xml } ?? payloads.first { $0.format == .der }
            ?? payloads.first { $0.format == .sectionXML } ?? payloads.first { $0.format == .sectionDER }
    }
}

/// The entitlements bytes of one slice and where they were found.
struct EntitlementsPayload: Sendable, Hashable {
    enum Format: Sendable, Hashable {
        /// The signature's `0xfade7171` blob: an XML property list.
        case xml
        /// The signature's `0xfade7172` blob: DER.
        case der
        /// A simulator build's `__TEXT,__entitlements` section: an XML property list.
        case sectionXML
        /// A simulator build's `__TEXT,__ents_der` section: DER.
        case sectionDER
    }

    var format: Format
    var bytes: [UInt8]
}
