import Foundation
import FuzzChecks
import TestSupport
import Testing

/// The app fixtures of the test suite (Mach-O slices thin and fat, a signed shop `.ipa`) through the app fuzz
/// target's checks. They are also its Mach-O and archive seeds: `AASA_WRITE_FUZZ_SEEDS=DIR swift test --filter
/// AppFixtureSeedTests` writes them as the target reads them (a reader byte, then the file) for `Inputs/app`.
@Suite("App fixtures keep the app reader's properties")
struct AppFixtureSeedTests {
    /// Reader bytes of `FuzzTarget.app`: 0 reads a Mach-O file, 4 an archive.
    static func seeds() throws -> [(name: String, bytes: [UInt8])] {
        let entitlements = AppFixture.entitlements(
            bundleID: "com.example.shop", domains: ["applinks:shop.example.com", "webcredentials:*.example.com"])
        let slice = MachOFixture.Slice.device(entitlements)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-seeds-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let ipa = try AppFixture.ipa(AppFixture.shop(), in: directory)
        return [
            ("seed-macho-thin", [0] + MachOFixture.thin(slice)),
            ("seed-macho-fat", [0] + MachOFixture.fat([MachOFixture.thin(slice), MachOFixture.thin(slice)])),
            ("seed-ipa-shop", [4] + Array(try Data(contentsOf: URL(fileURLWithPath: ipa)))),
        ]
    }

    @Test("Mach-O files and an .ipa from the fixtures keep the app target's properties")
    func fixtures() throws {
        let seeds = try Self.seeds()
        if let output = ProcessInfo.processInfo.environment["AASA_WRITE_FUZZ_SEEDS"] {
            for seed in seeds {
                try Data(seed.bytes).write(to: URL(fileURLWithPath: output).appendingPathComponent(seed.name))
            }
        }
        for seed in seeds {
            do {
                try FuzzTarget.app.check(seed.bytes)
            } catch {
                Issue.record("\(seed.name): \(error)")
            }
        }
    }
}
