/// Reads the entitlements blobs out of an embedded code signature: the big-endian SuperBlob
/// (`CSMAGIC_EMBEDDED_SIGNATURE` `0xfade0cc0`) that `LC_CODE_SIGNATURE` points to.
///
/// Only the SuperBlob header, its slot index and the entitlements blobs are read; the code directories' page
/// hashes (megabytes in a large app) are never touched.
enum CodeSignature {
    /// The XML (slot 5, `0xfade7171`) and DER (slot 7, `0xfade7172`) entitlements, in that order, as present.
    static func entitlements(
        in source: some ByteSource, at offset: UInt64, size: UInt64
    ) throws(AppClaimsError)
        -> [EntitlementsPayload]
    {
        guard size >= 12 else {
            throw AppClaimsError(.truncated, "the code signature is \(size) bytes, too short for a SuperBlob header")
        }
        let header = BinaryCursor(
            bytes: try source.bytes(at: offset, length: 12, what: "the SuperBlob header"), bigEndian: true,
            what: "the SuperBlob header")
        let magic = try header.uint32(at: 0)
        guard magic == MachOReader.superBlobMagic else {
            throw AppClaimsError(
                .malformed,
                "the code signature at offset \(offset) is not a SuperBlob (magic \(hex32(magic)), expected "
                    + "0xfade0cc0)")
        }
        let length = UInt64(try header.uint32(at: 4))
        let count = try header.uint32(at: 8)
        guard length >= 12, length <= size else {
            throw AppClaimsError(
                .outOfBounds,
                "the SuperBlob claims \(length) bytes; LC_CODE_SIGNATURE gives it \(size)")
        }
        guard count <= MachOReader.Limits.superBlobSlots else {
            throw AppClaimsError(
                .tooLarge,
                "the SuperBlob claims \(count) slots; a signature has a handful (at most "
                    + "\(MachOReader.Limits.superBlobSlots) are read)")
        }
        guard 12 + UInt64(count) * 8 <= length else {
            throw AppClaimsError(
                .outOfBounds, "the SuperBlob's \(count) slots (\(count * 8) bytes) run past its length (\(length))")
        }
        let index = BinaryCursor(
            bytes: try source.bytes(at: offset + 12, length: UInt64(count) * 8, what: "the SuperBlob index"),
            bigEndian: true, what: "the SuperBlob index")
        var xml: EntitlementsPayload?
        var der: EntitlementsPayload?
        for slot in 0..<Int(count) {
            let type = try index.uint32(at: slot * 8)
            let blobOffset = UInt64(try index.uint32(at: slot * 8 + 4))
            let expected: UInt32
            switch type {
            case MachOReader.entitlementsSlot: expected = MachOReader.entitlementsMagic
            case MachOReader.derEntitlementsSlot: expected = MachOReader.derEntitlementsMagic
            default: continue
            }
            let payload = try blob(
                in: source, superBlob: offset, length: length, at: blobOffset, slot: type, magic: expected)
            if type == MachOReader.entitlementsSlot {
                xml = xml ?? EntitlementsPayload(format: .xml, bytes: payload)
            } else {
                der = der ?? EntitlementsPayload(format: .der, bytes: payload)
            }
        }
        return [xml, der].compactMap { $0 }
    }

    /// The payload of the blob at `blobOffset` (from the SuperBlob's start), after its 8-byte header.
    private static func blob(
        in source: some ByteSource, superBlob: UInt64, length: UInt64, at blobOffset: UInt64, slot: UInt32,
        magic expected: UInt32
    ) throws(AppClaimsError) -> [UInt8] {
        guard blobOffset >= 12, blobOffset + 8 <= length else {
            throw AppClaimsError(
                .outOfBounds,
                "SuperBlob slot \(slot) points to offset \(blobOffset), outside the SuperBlob (\(length) bytes)")
        }
        let header = BinaryCursor(
            bytes: try source.bytes(at: superBlob + blobOffset, length: 8, what: "the slot \(slot) blob header"),
            bigEndian: true, what: "the slot \(slot) blob header")
        let magic = try header.uint32(at: 0)
        guard magic == expected else {
            throw AppClaimsError(
                .malformed,
                "SuperBlob slot \(slot) holds magic \(hex32(magic)), expected \(hex32(expected)) (entitlements)")
        }
        let blobLength = UInt64(try header.uint32(at: 4))
        guard blobLength >= 8, blobOffset + blobLength <= length else {
            throw AppClaimsError(
                .outOfBounds,
                "the entitlements blob (slot \(slot)) claims \(blobLength) bytes at offset \(blobOffset), past the "
                    + "end of the SuperBlob (\(length) bytes)")
        }
        guard blobLength - 8 <= MachOReader.Limits.entitlementsBytes else {
            throw AppClaimsError(
                .tooLarge,
                "the entitlements blob (slot \(slot)) is \(blobLength) bytes; over "
                    + "\(MachOReader.Limits.entitlementsBytes) bytes are not read")
        }
        return try source.bytes(
            at: superBlob + blobOffset + 8, length: blobLength - 8, what: "the entitlements blob (slot \(slot))")
    }
}
