import AppClaims
import Foundation
import TestSupport
import Testing

/// Issue 22, item 5: every hostile app file is one thrown error naming the file and what is wrong, fast, with
/// nothing written. Each case is a patch of a valid fixture, so the error is about exactly that patch.
///
/// "Fast" is judged by the kind of each error (a limit that stopped the reader: too deep, too large, a deflate bomb),
/// not by the clock, which measures the machine (issue 31). `AppReader` exposes no count of the work it did; the app
/// fuzz target (`.ci/fuzz app`) fails on any input that takes over 10 s or 2 GB.
@Suite("hostile app files")
struct HostileInputTests {
    static var entitlements: [String: Any] {
        AppFixture.entitlements(bundleID: "com.example.shop", domains: ["applinks:x.example.com"])
    }

    /// Reads `bytes` as a lone executable from a file; returns the error, checking it is one line and names the
    /// file.
    static func error(reading bytes: [UInt8], as name: String = "Shop") async throws -> AppClaimsError {
        try await AppFixture.withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent(name).path
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            return try error(readingPath: path)
        }
    }

    static func error(readingPath path: String, appID: String? = nil) throws -> AppClaimsError {
        do {
            _ = try AppReader.read(path: path, appID: appID)
        } catch {
            #expect(!error.description.contains("\n"))
            #expect(error.description.hasPrefix(path + ": "), "\(error)")
            return error
        }
        throw ExpectedError()
    }

    struct ExpectedError: Error {}

    static var valid: MachOFixture.Layout { MachOFixture.layout(.device(entitlements)) }

    @Test("a truncated executable: cut in the header, in the load commands, before the signature")
    func truncated() async throws {
        let bytes = Self.valid.bytes
        #expect(try await Self.error(reading: Array(bytes.prefix(20))).kind == .truncated)
        #expect(try await Self.error(reading: Array(bytes.prefix(60))).kind == .outOfBounds)
        let cut = try await Self.error(reading: Array(bytes.prefix(bytes.count - 10)))
        #expect(cut.kind == .outOfBounds)
        #expect(cut.reason.contains("LC_CODE_SIGNATURE"))
    }

    @Test("a file that is no Mach-O, ZIP or plist; a shell script as an app's executable")
    func notMachO() async throws {
        let script = try await Self.error(reading: Array("#!/bin/sh\necho hi\n".utf8))
        #expect(script.kind == .unknownFormat)
        try await AppFixture.withTemporaryDirectory { directory in
            var shop = AppFixture.shop()
            shop.executable = Array("#!/bin/sh\necho hi\n".utf8) + [UInt8](repeating: 0, count: 64)
            let app = try AppFixture.appFolder(shop, in: directory)
            let error = try Self.error(readingPath: app)
            #expect(error.kind == .unknownFormat)
            #expect(error.description == "\(app): Shop.app/Shop: not a Mach-O file (magic 0x23212f62)")
        }
    }

    @Test("load commands outside the file: sizeofcmds, cmdsize and ncmds patched")
    func loadCommands() async throws {
        var sizeOfCommands = Self.valid.bytes
        sizeOfCommands.patchLittleEndian(0x00ff_ffff, at: 20)
        #expect(try await Self.error(reading: sizeOfCommands).kind == .outOfBounds)

        var commandSize = Self.valid.bytes
        commandSize.patchLittleEndian(0xffff_fff0, at: Self.valid.loadCommandsOffset + 4)
        #expect(try await Self.error(reading: commandSize).kind == .outOfBounds)

        var commandCount = Self.valid.bytes
        commandCount.patchLittleEndian(4_000_000_000, at: 16)
        #expect(try await Self.error(reading: commandCount).kind == .tooLarge)
    }

    @Test("the signature or a blob placed outside the file or the SuperBlob")
    func blobOffsets() async throws {
        let layout = Self.valid
        var signature = layout.bytes
        signature.patchLittleEndian(0x7fff_ffff, at: try #require(layout.codeSignatureCommandOffset) + 8)
        #expect(try await Self.error(reading: signature).kind == .outOfBounds)

        var slot = layout.bytes
        let superBlob = try #require(layout.superBlobOffset)
        // The third slot (index 2) is the XML entitlements: its offset field.
        slot.patchBigEndian(0xffff_ff00, at: superBlob + 12 + 2 * 8 + 4)
        let error = try await Self.error(reading: slot)
        #expect(error.kind == .outOfBounds)
        #expect(error.reason.contains("slot 5"))

        var blobLength = layout.bytes
        blobLength.patchBigEndian(0x7fff_ffff, at: try #require(layout.xmlBlobOffset) + 4)
        #expect(try await Self.error(reading: blobLength).kind == .outOfBounds)
    }

    @Test("a SuperBlob claiming billions of slots")
    func superBlobCount() async throws {
        var bytes = Self.valid.bytes
        bytes.patchBigEndian(3_000_000_000, at: try #require(Self.valid.superBlobOffset) + 8)
        let error = try await Self.error(reading: bytes)
        #expect(error.kind == .tooLarge)
        #expect(error.reason.contains("3000000000 slots"))
    }

    @Test("a fat header claiming billions of architectures, or a slice past the end")
    func fatHeader() async throws {
        var count = MachOFixture.fat([Self.valid.bytes])
        count.patchBigEndian(2_000_000_000, at: 4)
        #expect(try await Self.error(reading: count).kind == .tooLarge)
        var offset = MachOFixture.fat([Self.valid.bytes])
        offset.patchBigEndian(0xffff_0000, at: 16)
        #expect(try await Self.error(reading: offset).kind == .outOfBounds)
    }

    @Test("an entitlements blob that is not a property list, and one that is not a dictionary")
    func notPlist() async throws {
        let garbage = MachOFixture.thin(MachOFixture.Slice(xmlEntitlements: Array("hello, world".utf8)))
        #expect(try await Self.error(reading: garbage).kind == .notPropertyList)
        let broken = MachOFixture.thin(MachOFixture.Slice(xmlEntitlements: Array("<plist><dict><key>a</dict>".utf8)))
        #expect(try await Self.error(reading: broken).kind == .notPropertyList)
        let array = MachOFixture.thin(MachOFixture.Slice(xmlEntitlements: MachOFixture.plist(["a"], format: .xml)))
        #expect(try await Self.error(reading: array).kind == .notPropertyList)
        let der = MachOFixture.thin(MachOFixture.Slice(derEntitlements: [0x30, 0x03, 0x02, 0x01]))
        #expect(try await Self.error(reading: der).kind == .notPropertyList)
    }

    /// `<plist><array>` × depth, closed again.
    static func deepXML(_ depth: Int) -> [UInt8] {
        Array(
            ("<?xml version=\"1.0\" encoding=\"UTF-8\"?><plist version=\"1.0\">"
                + String(repeating: "<array>", count: depth) + String(repeating: "</array>", count: depth)
                + "</plist>").utf8)
    }

    /// A `bplist00` of `depth` arrays, each holding the next.
    static func deepBinary(_ depth: Int, fanOut: Int = 1) -> [UInt8] {
        var out: [UInt8] = Array("bplist00".utf8)
        var offsets: [Int] = []
        func be32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }
        for index in 0..<depth {
            offsets.append(out.count)
            if index == depth - 1 {
                out.append(0xa0)
            } else {
                out.append(0xa0 | UInt8(fanOut))
                for _ in 0..<fanOut { out += be32(index + 1) }
            }
        }
        let table = out.count
        for offset in offsets { out += be32(offset) }
        out += [0, 0, 0, 0, 0, 0, 4, 4]
        out += [0, 0, 0, 0] + be32(depth)
        out += [UInt8](repeating: 0, count: 8)
        out += [0, 0, 0, 0] + be32(table)
        return out
    }

    @Test("100,000-deep nesting in a signature blob, an .entitlements file (XML and binary): too deep, quickly")
    func deepNesting() async throws {
        let blob = MachOFixture.thin(MachOFixture.Slice(xmlEntitlements: Self.deepXML(100_000)))
        #expect(try await Self.error(reading: blob).kind == .tooDeep)
        #expect(try await Self.error(reading: Self.deepXML(100_000), as: "Deep.entitlements").kind == .appIDRequired)
        try await AppFixture.withTemporaryDirectory { directory in
            for (name, bytes) in [("xml", Self.deepXML(100_000)), ("binary", Self.deepBinary(100_000))] {
                let path = directory.appendingPathComponent("\(name).entitlements").path
                try Data(bytes).write(to: URL(fileURLWithPath: path))
                let error = try Self.error(readingPath: path, appID: "ABCDE12345.com.example.shop")
                #expect(error.kind == .tooDeep, "\(name): \(error)")
            }
        }
    }

    @Test("a binary plist whose shared references expand to 2^40 values, or that refers to itself")
    func expandingBinary() async throws {
        try await AppFixture.withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("Wide.entitlements").path
            try Data(Self.deepBinary(40, fanOut: 2)).write(to: URL(fileURLWithPath: path))
            #expect(try Self.error(readingPath: path, appID: "ABCDE12345.com.example.shop").kind == .tooLarge)
            var cycle = Self.deepBinary(3)
            // Object 1 (at offset 13) refers to object 0 instead of 2.
            cycle[13 + 4] = 0
            try Data(cycle).write(to: URL(fileURLWithPath: path))
            #expect(try Self.error(readingPath: path, appID: "ABCDE12345.com.example.shop").kind == .malformed)
        }
    }

    @Test("a plist with an internal DTD subset is refused (it could hide closing tags)")
    func internalSubset() async throws {
        let bytes = Array("<?xml version=\"1.0\"?><!DOCTYPE plist [ <!ENTITY a \"b\"> ]><plist><dict/></plist>".utf8)
        let blob = MachOFixture.thin(MachOFixture.Slice(xmlEntitlements: bytes))
        #expect(try await Self.error(reading: blob).kind == .notPropertyList)
    }

    @Test("an .ipa with an entry named ../../x is refused, and nothing is written")
    func traversal() async throws {
        try await AppFixture.withTemporaryDirectory { directory in
            let inner = directory.appendingPathComponent("inner")
            try FileManager.default.createDirectory(at: inner, withIntermediateDirectories: true)
            let ipa = try AppFixture.ipa(AppFixture.shop(), extra: [("../../x", [1, 2, 3])], in: inner)
            let error = try Self.error(readingPath: ipa)
            #expect(error.kind == .unsafeEntryName)
            #expect(error.reason.contains("'../../x'"))
            #expect(
                !FileManager.default.fileExists(
                    atPath: directory.deletingLastPathComponent().appendingPathComponent("x").path))
            let absolute = try AppFixture.ipa(
                AppFixture.shop(), named: "Absolute.ipa", extra: [("/etc/x", [1])], in: inner)
            #expect(try Self.error(readingPath: absolute).kind == .unsafeEntryName)
        }
    }

    @Test("an .ipa entry nested thousands of folders deep is refused before its folders are recorded")
    func deepName() async throws {
        try await AppFixture.withTemporaryDirectory { directory in
            let deep = "Payload/" + String(repeating: "a/", count: 30_000) + "x"
            let ipa = try AppFixture.ipa(AppFixture.shop(), extra: [(deep, [1])], in: directory)
            let error = try Self.error(readingPath: ipa)
            #expect(error.kind == .tooLarge)
            #expect(error.reason.contains("folders deep"))
            let edge = "Payload/" + String(repeating: "a/", count: 62) + "x"
            let fine = try AppFixture.ipa(AppFixture.shop(), named: "Edge.ipa", extra: [(edge, [1])], in: directory)
            #expect(try AppReader.read(path: fine).binaries.count == 3)
        }
    }

    @Test("a deflate bomb (2 GiB of zeros in about 2 MB) as the executable and as Info.plist stops early")
    func deflateBomb() async throws {
        try await AppFixture.withTemporaryDirectory { directory in
            let executable = try AppFixture.bombIPA(
                bombing: "Payload/Shop.app/Shop", bundle: AppFixture.shop(), named: "Exec.ipa", in: directory)
            let size = try #require(try FileManager.default.attributesOfItem(atPath: executable)[.size] as? Int)
            #expect(size < 4 << 20, "the bomb is \(size) bytes")
            let first = try Self.error(readingPath: executable)
            #expect(first.kind == .unknownFormat, "\(first)")
            #expect(first.member == "Payload/Shop.app/Shop")

            let info = try AppFixture.bombIPA(
                bombing: "Payload/Shop.app/Info.plist", bundle: AppFixture.shop(), named: "Info.ipa", in: directory)
            let second = try Self.error(readingPath: info)
            #expect(second.kind == .tooLarge, "\(second)")

            // Headers that claim 1,000 bytes: the stream is cut where it passes them.
            for entry in ["Payload/Shop.app/Info.plist", "Payload/Shop.app/Shop"] {
                let lying = try AppFixture.bombIPA(
                    bombing: entry, declaring: 1_000, bundle: AppFixture.shop(), named: "Lying.ipa", in: directory)
                let error = try Self.error(readingPath: lying)
                #expect(error.kind == .tooLarge, "\(error)")
                #expect(error.reason.contains("deflate bomb"), "\(error)")
                try FileManager.default.removeItem(atPath: lying)
            }
        }
    }

    @Test("an .ipa that is not a ZIP: random bytes, a PK prefix with nothing after, an empty file")
    func notZIP() async throws {
        #expect(try await Self.error(reading: [UInt8](repeating: 0x41, count: 5000), as: "Shop.ipa").kind == .notZIP)
        #expect(try await Self.error(reading: Array("PK\u{3}\u{4}garbage".utf8), as: "Shop.ipa").kind == .notZIP)
        #expect(try await Self.error(reading: [], as: "Shop.ipa").kind == .notZIP)
    }

    @Test("a folder that is no bundle, and a path that does not exist")
    func notABundle() async throws {
        try await AppFixture.withTemporaryDirectory { directory in
            let folder = try Self.error(readingPath: directory.path)
            #expect(folder.kind == .incompleteBundle)
            let missing = try Self.error(readingPath: directory.appendingPathComponent("none").path)
            #expect(missing.kind == .unreadable)
        }
    }
}

/// The deflate bomb of the hostile tests is a valid archive: a small one inflates completely, CRC included.
@Suite("deflate bomb fixture")
struct DeflateBombFixtureTests {
    @Test("a 3 MB bomb as Info.plist inflates whole (then is no plist): the stream and its CRC are valid")
    func validStream() async throws {
        try await AppFixture.withTemporaryDirectory { directory in
            let ipa = try AppFixture.bombIPA(
                bombing: "Payload/Shop.app/Info.plist", size: 3_000_000, bundle: AppFixture.shop(), in: directory)
            do {
                _ = try AppReader.read(path: ipa)
                Issue.record("expected an error")
            } catch let error as AppClaimsError {
                #expect(error.kind == .notPropertyList, "\(error)")
            }
        }
    }
}
