/// What the Mach-O reader needs from a slice's load commands (`mach-o/loader.h`): the code signature's place and
/// the simulator's entitlements sections.
struct LoadCommands {
    struct Range: Hashable {
        var offset: UInt64
        var size: UInt64
    }

    struct Section: Hashable {
        var name: String
        var offset: UInt64
        var size: UInt64
        var format: EntitlementsPayload.Format
    }

    var codeSignature: Range?
    var entitlementSections: [Section] = []

    /// Walks `count` commands in `cursor` (exactly `sizeofcmds` bytes), checking every `cmdsize` and every offset
    /// against `fileSize` (the slice's size).
    static func parse(
        _ cursor: BinaryCursor, count: UInt32, wide: Bool, fileSize: UInt64
    ) throws(AppClaimsError)
        -> LoadCommands
    {
        var result = LoadCommands()
        var position = 0
        for index in 0..<Int(count) {
            guard position <= cursor.bytes.count - 8 else {
                throw AppClaimsError(
                    .outOfBounds,
                    "load command \(index) of \(count) starts at byte \(position) of the load commands, past their "
                        + "end (sizeofcmds \(cursor.bytes.count))")
            }
            let command = try cursor.uint32(at: position)
            let size = Int(try cursor.uint32(at: position + 4))
            guard size >= 8, size <= cursor.bytes.count - position else {
                throw AppClaimsError(
                    .outOfBounds,
                    "load command \(index) (\(hex32(command))) has cmdsize \(size), which "
                        + (size < 8 ? "is smaller than a load command header" : "runs past sizeofcmds")
                        + " (\(cursor.bytes.count) bytes)")
            }
            let body = BinaryCursor(
                bytes: Array(cursor.bytes[position..<(position + size)]), bigEndian: cursor.bigEndian,
                what: "load command \(index) (\(hex32(command)))")
            switch command {
            case MachOReader.loadCommandCodeSignature:
                guard result.codeSignature == nil else {
                    throw AppClaimsError(.malformed, "load command \(index) is a second LC_CODE_SIGNATURE")
                }
                let offset = UInt64(try body.uint32(at: 8))
                let dataSize = UInt64(try body.uint32(at: 12))
                guard offset + dataSize <= fileSize else {
                    throw AppClaimsError(
                        .outOfBounds,
                        "LC_CODE_SIGNATURE (load command \(index)) places the signature at bytes \(offset) to "
                            + "\(offset + dataSize), past the end of the file (\(fileSize) bytes)")
                }
                result.codeSignature = Range(offset: offset, size: dataSize)
            case MachOReader.loadCommandSegment, MachOReader.loadCommandSegment64:
                result.entitlementSections += try sections(
                    of: body, index: index, wide: command == MachOReader.loadCommandSegment64, fileSize: fileSize)
            default:
                break
            }
            position += size
        }
        return result
    }

    /// The `__TEXT,__entitlements` and `__TEXT,__ents_der` sections of one segment command.
    private static func sections(
        of body: BinaryCursor, index: Int, wide: Bool, fileSize: UInt64
    )
        throws(AppClaimsError) -> [Section]
    {
        guard try body.name(at: 8) == "__TEXT" else { return [] }
        let headerSize = wide ? 72 : 56
        let sectionSize = wide ? 80 : 68
        let count = Int(try body.uint32(at: wide ? 64 : 48))
        guard count <= (body.bytes.count - headerSize) / sectionSize else {
            throw AppClaimsError(
                .outOfBounds,
                "the __TEXT segment (load command \(index)) claims \(count) sections; its \(body.bytes.count) "
                    + "bytes hold at most \((body.bytes.count - headerSize) / sectionSize)")
        }
        var found: [Section] = []
        for section in 0..<count {
            let base = headerSize + section * sectionSize
            let name = try body.name(at: base)
            let format: EntitlementsPayload.Format
            switch name {
            case "__entitlements": format = .sectionXML
            case "__ents_der": format = .sectionDER
            default: continue
            }
            let size = wide ? try body.uint64(at: base + 40) : UInt64(try body.uint32(at: base + 36))
            let offset = UInt64(try body.uint32(at: base + (wide ? 48 : 40)))
            let (end, overflow) = offset.addingReportingOverflow(size)
            guard !overflow, end <= fileSize else {
                throw AppClaimsError(
                    .outOfBounds,
                    "section __TEXT,\(name) spans \(size) bytes at offset \(offset), past the end of the file "
                        + "(\(fileSize) bytes)")
            }
            found.append(Section(name: name, offset: offset, size: size, format: format))
        }
        return found
    }
}
