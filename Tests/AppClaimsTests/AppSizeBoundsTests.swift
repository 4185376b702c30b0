import AppClaims
import Foundation
import TestSupport
import Testing

/// Issue 32 §8: an archive of more entries than an app has is refused with a clear error, and a symbolic link inside
/// an `.app` cannot make the reader read a binary again.
@Suite("app size bounds")
struct AppSizeBoundsTests {
    /// A stored ZIP of `count` empty files under `Payload/Shop.app/`, written by hand: ZIPFoundation rewrites its
    /// central directory on every added entry, which takes minutes for tens of thousands.
    static func zipOfEmptyEntries(_ count: Int, to url: URL) throws {
        var local: [UInt8] = []
        var central: [UInt8] = []
        func le16(_ value: Int, _ out: inout [UInt8]) { out += [UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF)] }
        func le32(_ value: Int, _ out: inout [UInt8]) {
            le16(value & 0xFFFF, &out)
            le16((value >> 16) & 0xFFFF, &out)
        }
        for index in 0..<count {
            let name = Array("Payload/Shop.app/f\(index)".utf8)
            let offset = local.count
            le32(0x0403_4B50, &local)
            for field in [20, 0, 0, 0, 0] { le16(field, &local) }  // version, flags, stored, time, date
            for _ in 0..<3 { le32(0, &local) }  // crc, sizes
            le16(name.count, &local)
            le16(0, &local)
            local += name
            le32(0x0201_4B50, &central)
            for field in [20, 20, 0, 0, 0, 0] { le16(field, &central) }  // made by, needed, flags, stored, time, date
            for _ in 0..<3 { le32(0, &central) }
            for field in [name.count, 0, 0, 0, 0] { le16(field, &central) }  // name, extra, comment, disk, internal
            le32(0, &central)  // external attributes
            le32(offset, &central)
            central += name
        }
        var end: [UInt8] = []
        le32(0x0605_4B50, &end)
        for field in [0, 0, count, count] { le16(field, &end) }
        le32(central.count, &end)
        le32(local.count, &end)
        le16(0, &end)
        try Data(local + central + end).write(to: url)
    }

    @Test("an .ipa of 50,001 entries is refused as too large, naming the bound; 2,000 entries are read on")
    func tooManyEntries() async throws {
        try await AppFixture.withTemporaryDirectory { directory in
            let huge = directory.appendingPathComponent("Huge.ipa")
            try Self.zipOfEmptyEntries(50_001, to: huge)
            do throws(AppClaimsError) {
                _ = try AppReader.read(path: huge.path, appID: nil)
                Issue.record("read an archive of 50,001 entries")
            } catch {
                #expect(error.kind == .tooLarge, "\(error)")
                #expect(error.description.contains("more than 50000 entries"), "\(error)")
            }
            // Below the bound the archive is indexed and judged on its content (no Info.plist), not its size.
            let small = directory.appendingPathComponent("Small.ipa")
            try Self.zipOfEmptyEntries(2_000, to: small)
            do throws(AppClaimsError) {
                _ = try AppReader.read(path: small.path, appID: nil)
                Issue.record("read an app without an Info.plist")
            } catch {
                #expect(error.kind != .tooLarge, "\(error)")
            }
        }
    }

    @Test("a symbolic link looping back inside an .app is not followed: each binary is read once")
    func symlinkLoop() async throws {
        try await AppFixture.withTemporaryDirectory { directory in
            let app = try AppFixture.appFolder(AppFixture.shop(), in: directory)
            let before = try AppReader.read(path: app, appID: nil).binaries.map(\.path)
            let plugIns = app + "/PlugIns"
            try FileManager.default.createDirectory(atPath: plugIns, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: plugIns + "/Loop.appex", withDestinationPath: "..")
            let report = try AppReader.read(path: app, appID: nil)
            #expect(report.binaries.map(\.path) == before, "the link read something again")
        }
    }
}
