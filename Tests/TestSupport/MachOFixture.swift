import Foundation
import SwiftASN1

/// Writes Mach-O executables, thin and universal, signed with entitlements, for the app-reading tests: the layouts
/// of `mach-o/loader.h`, `mach-o/fat.h` and the code-signing SuperBlob, built byte by byte so every test input is
/// made at test time and every hostile variant is a known patch of a valid file.
public enum MachOFixture {
    /// One slice: its architecture, byte order, word size and what it carries.
    public struct Slice: Sendable {
        public var cpuType: UInt32
        public var cpuSubtype: UInt32
        public var bigEndian: Bool
        public var wide: Bool
        /// The XML entitlements blob (`0xfade7171`, slot 5), or none.
        public var xmlEntitlements: [UInt8]?
        /// The DER entitlements blob (`0xfade7172`, slot 7), or none.
        public var derEntitlements: [UInt8]?
        /// A simulator build's `__TEXT,__entitlements` section, or none.
        public var simulatorEntitlements: [UInt8]?
        /// Whether there is an `LC_CODE_SIGNATURE` at all.
        public var signed: Bool

        public init(
            cpuType: UInt32 = 0x0100_000c, cpuSubtype: UInt32 = 0, bigEndian: Bool = false, wide: Bool = true,
            xmlEntitlements: [UInt8]? = nil, derEntitlements: [UInt8]? = nil, simulatorEntitlements: [UInt8]? = nil,
            signed: Bool = true
        ) {
            self.cpuType = cpuType
            self.cpuSubtype = cpuSubtype
            self.bigEndian = bigEndian
            self.wide = wide
            self.xmlEntitlements = xmlEntitlements
            self.derEntitlements = derEntitlements
            self.simulatorEntitlements = simulatorEntitlements
            self.signed = signed
        }

        /// An arm64 device build signed with `entitlements` as XML and DER, as Xcode signs since 2021.
        public static func device(_ entitlements: [String: Any]) -> Slice {
            Slice(
                xmlEntitlements: MachOFixture.xml(entitlements), derEntitlements: MachOFixture.der(entitlements))
        }
    }

    /// Where the parts of a written thin file are, for tests that patch them.
    public struct Layout: Sendable {
        public var bytes: [UInt8]
        /// Offset of the first load command (the header's size).
        public var loadCommandsOffset: Int
        /// Offset of `LC_CODE_SIGNATURE`'s command in the file.
        public var codeSignatureCommandOffset: Int?
        /// Offset of the SuperBlob.
        public var superBlobOffset: Int?
        /// Offset of the XML entitlements blob (its magic).
        public var xmlBlobOffset: Int?
    }

    // MARK: Thin

    public static func thin(_ slice: Slice, padding: Int = 0) -> [UInt8] { layout(slice, padding: padding).bytes }

    /// A thin Mach-O file: header, `LC_SEGMENT(_64)` `__TEXT` (with `__entitlements` when simulated),
    /// `LC_CODE_SIGNATURE`, `padding` bytes of code, the section's bytes, then the SuperBlob.
    public static func layout(_ slice: Slice, padding: Int = 0) -> Layout {
        var out = ByteWriter(bigEndian: slice.bigEndian)
        let headerSize = slice.wide ? 32 : 28
        let sectionSize = slice.wide ? 80 : 68
        let segmentHeader = slice.wide ? 72 : 56
        let hasSection = slice.simulatorEntitlements != nil
        let segmentSize = segmentHeader + (hasSection ? sectionSize : 0)
        let signatureCommandSize = slice.signed ? 16 : 0
        let commandsSize = segmentSize + signatureCommandSize
        let commandCount = 1 + (slice.signed ? 1 : 0)
        let codeStart = align(headerSize + commandsSize, 16)
        let sectionStart = codeStart + padding
        let section = slice.simulatorEntitlements ?? []
        let signatureStart = align(sectionStart + section.count, 16)
        let signature = slice.signed ? superBlob(slice) : (blob: [UInt8](), xmlOffset: nil)

        out.u32(slice.wide ? 0xfeed_facf : 0xfeed_face)
        out.u32(slice.cpuType)
        out.u32(slice.cpuSubtype)
        out.u32(2)  // MH_EXECUTE
        out.u32(UInt32(commandCount))
        out.u32(UInt32(commandsSize))
        out.u32(0x0020_0085)  // flags
        if slice.wide { out.u32(0) }

        out.u32(slice.wide ? 0x19 : 0x1)
        out.u32(UInt32(segmentSize))
        out.name("__TEXT")
        if slice.wide {
            out.u64(0x1_0000_0000)
            out.u64(UInt64(signatureStart))
            out.u64(0)
            out.u64(UInt64(signatureStart))
        } else {
            out.u32(0x1000)
            out.u32(UInt32(signatureStart))
            out.u32(0)
            out.u32(UInt32(signatureStart))
        }
        out.u32(5)
        out.u32(5)
        out.u32(hasSection ? 1 : 0)
        out.u32(0)
        if hasSection {
            out.name("__entitlements")
            out.name("__TEXT")
            if slice.wide {
                out.u64(0x1_0000_0000 + UInt64(sectionStart))
                out.u64(UInt64(section.count))
            } else {
                out.u32(0x1000 + UInt32(sectionStart))
                out.u32(UInt32(section.count))
            }
            out.u32(UInt32(sectionStart))
            for _ in 0..<(slice.wide ? 7 : 6) { out.u32(0) }
        }
        var codeSignatureCommandOffset: Int?
        if slice.signed {
            codeSignatureCommandOffset = out.bytes.count
            out.u32(0x1d)
            out.u32(16)
            out.u32(UInt32(signatureStart))
            out.u32(UInt32(signature.blob.count))
        }
        out.pad(to: sectionStart)
        out.bytes += section
        out.pad(to: signatureStart)
        out.bytes += signature.blob
        return Layout(
            bytes: out.bytes, loadCommandsOffset: headerSize, codeSignatureCommandOffset: codeSignatureCommandOffset,
            superBlobOffset: slice.signed ? signatureStart : nil,
            xmlBlobOffset: signature.xmlOffset.map { signatureStart + $0 })
    }

    /// The SuperBlob: a stand-in CodeDirectory (slot 0), the requirements (slot 2), then the entitlements blobs.
    static func superBlob(_ slice: Slice) -> (blob: [UInt8], xmlOffset: Int?) {
        var blobs: [(type: UInt32, bytes: [UInt8])] = [
            (0, blob(magic: 0xfade_0c02, payload: [UInt8](repeating: 0xab, count: 40))),
            (2, blob(magic: 0xfade_0c01, payload: [0, 0, 0, 0])),
        ]
        if let xml = slice.xmlEntitlements { blobs.append((5, blob(magic: 0xfade_7171, payload: xml))) }
        if let der = slice.derEntitlements { blobs.append((7, blob(magic: 0xfade_7172, payload: der))) }
        var out = ByteWriter(bigEndian: true)
        let indexEnd = 12 + blobs.count * 8
        let total = indexEnd + blobs.reduce(0) { $0 + $1.bytes.count }
        out.u32(0xfade_0cc0)
        out.u32(UInt32(total))
        out.u32(UInt32(blobs.count))
        var offset = indexEnd
        var xmlOffset: Int?
        for blob in blobs {
            out.u32(blob.type)
            out.u32(UInt32(offset))
            if blob.type == 5 { xmlOffset = offset }
            offset += blob.bytes.count
        }
        for blob in blobs { out.bytes += blob.bytes }
        return (out.bytes, xmlOffset)
    }

    static func blob(magic: UInt32, payload: [UInt8]) -> [UInt8] {
        var out = ByteWriter(bigEndian: true)
        out.u32(magic)
        out.u32(UInt32(8 + payload.count))
        out.bytes += payload
        return out.bytes
    }

    // MARK: Universal

    /// A universal file of `slices` (`FAT_MAGIC`, or `FAT_MAGIC_64` when `wide`), each aligned to 2^14.
    public static func fat(_ slices: [[UInt8]], cpuTypes: [UInt32]? = nil, wide: Bool = false) -> [UInt8] {
        var out = ByteWriter(bigEndian: true)
        out.u32(wide ? 0xcafe_babf : 0xcafe_babe)
        out.u32(UInt32(slices.count))
        var offset = align(8 + slices.count * (wide ? 32 : 20), 1 << 14)
        var offsets: [Int] = []
        for (index, slice) in slices.enumerated() {
            let type = cpuTypes?[index] ?? (index == 0 ? 0x0100_000c : 0x0100_0007)
            out.u32(type)
            out.u32(index == 0 ? 0 : 3)
            if wide {
                out.u64(UInt64(offset))
                out.u64(UInt64(slice.count))
                out.u32(14)
                out.u32(0)
            } else {
                out.u32(UInt32(offset))
                out.u32(UInt32(slice.count))
                out.u32(14)
            }
            offsets.append(offset)
            offset = align(offset + slice.count, 1 << 14)
        }
        for (slice, start) in zip(slices, offsets) {
            out.pad(to: start)
            out.bytes += slice
        }
        return out.bytes
    }

    // MARK: Entitlements

    /// `entitlements` as an XML property list.
    public static func xml(_ entitlements: [String: Any]) -> [UInt8] {
        plist(entitlements, format: .xml)
    }

    public static func plist(_ value: Any, format: PropertyListSerialization.PropertyListFormat) -> [UInt8] {
        // Fixtures are made of plain strings, booleans, numbers, arrays and dictionaries: serialisable.
        (try? [UInt8](PropertyListSerialization.data(fromPropertyList: value, format: format, options: 0))) ?? []
    }

    /// `entitlements` as DER: `[APPLICATION 16] { INTEGER 1, [CONTEXT 16] dict }`.
    public static func der(_ entitlements: [String: Any]) -> [UInt8] {
        var serializer = DER.Serializer()
        do {
            try serializer.appendConstructedNode(identifier: ASN1Identifier(tagWithNumber: 16, tagClass: .application))
            { inner in
                try inner.serialize(1)
                try inner.appendConstructedNode(
                    identifier: ASN1Identifier(tagWithNumber: 16, tagClass: .contextSpecific)
                ) { body in
                    try encodeDER(entitlements, into: &body)
                }
            }
        } catch {
            return []
        }
        return serializer.serializedBytes
    }

    private static func encodeDER(_ value: Any, into serializer: inout DER.Serializer) throws {
        if type(of: value) == Bool.self, let bool = value as? Bool {
            try serializer.serialize(bool)
        } else if let string = value as? String {
            try serializer.serialize(ASN1UTF8String(string))
        } else if let number = value as? Int {
            try serializer.serialize(number)
        } else if let array = value as? [Any] {
            try serializer.appendConstructedNode(identifier: .sequence) { inner in
                for element in array { try encodeDER(element, into: &inner) }
            }
        } else if let dictionary = value as? [String: Any] {
            try serializer.appendConstructedNode(identifier: .set) { inner in
                for (key, element) in dictionary.sorted(by: { $0.key < $1.key }) {
                    try inner.appendConstructedNode(identifier: .sequence) { pair in
                        try pair.serialize(ASN1UTF8String(key))
                        try encodeDER(element, into: &pair)
                    }
                }
            }
        }
    }

    static func align(_ value: Int, _ alignment: Int) -> Int { (value + alignment - 1) / alignment * alignment }
}

/// Appends integers in one byte order.
struct ByteWriter {
    var bigEndian: Bool
    var bytes: [UInt8] = []

    init(bigEndian: Bool) { self.bigEndian = bigEndian }

    mutating func u32(_ value: UInt32) {
        let ordered = bigEndian ? value.bigEndian : value.littleEndian
        withUnsafeBytes(of: ordered) { bytes += $0 }
    }

    mutating func u16(_ value: UInt16) {
        let ordered = bigEndian ? value.bigEndian : value.littleEndian
        withUnsafeBytes(of: ordered) { bytes += $0 }
    }

    mutating func u64(_ value: UInt64) {
        let ordered = bigEndian ? value.bigEndian : value.littleEndian
        withUnsafeBytes(of: ordered) { bytes += $0 }
    }

    /// A 16-byte, NUL-padded name.
    mutating func name(_ text: String) {
        let utf8 = Array(text.utf8.prefix(16))
        bytes += utf8 + [UInt8](repeating: 0, count: 16 - utf8.count)
    }

    mutating func pad(to offset: Int) {
        if bytes.count < offset { bytes += [UInt8](repeating: 0, count: offset - bytes.count) }
    }
}

extension Array where Element == UInt8 {
    /// Writes `value` big-endian at `offset` (SuperBlob fields), for hostile patches.
    public mutating func patchBigEndian(_ value: UInt32, at offset: Int) {
        for index in 0..<4 { self[offset + index] = UInt8(truncatingIfNeeded: value >> (24 - 8 * UInt32(index))) }
    }

    /// Writes `value` little-endian at `offset` (Mach-O fields of a little-endian file).
    public mutating func patchLittleEndian(_ value: UInt32, at offset: Int) {
        for index in 0..<4 { self[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(index))) }
    }
}
