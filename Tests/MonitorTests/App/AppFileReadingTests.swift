import EndToEndSlot
import Foundation
import TestSupport
import Testing

/// Issue 35 §20 with the real binary: an app file's claims are bounded with a clear error, and the commands that
/// need no claims (`status`, `history`, `silence`) do not read the app files of `apps:`.
@Suite("app file reading", .serialized, .timeLimit(.minutes(10)), .endToEndSlot)
struct AppFileReadingTests {
    @Test("app on a build of 1,001 associated-domains entries exits 2 naming the file, the binary and the bound")
    func entryBound() async throws {
        try await AppFixture.withTemporaryDirectory { directory in
            let domains = (0..<1_001).map { "applinks:d\($0).example.com" }
            let ipa = try AppFixture.ipa(AppFixture.shop(mainDomains: domains), named: "Many.ipa", in: directory)
            let run = try await MonitorBinary.run(["app", ipa])
            #expect(run.status == 2, "\(run.output) \(run.error)")
            #expect(run.error.contains("\(ipa): Payload/Shop.app/Shop: "), "\(run.error)")
            #expect(run.error.contains("lists 1001 entries; at most 1000 are read"), "\(run.error)")
            let check = try await MonitorBinary.run(["check", "--app", ipa])
            #expect(check.status == 2, "\(check.error)")
            #expect(check.error.contains("at most 1000"), "\(check.error)")
        }
    }

    @Test("status, history and silence read no app file; a name outside domains: has the app files read to decide")
    func claimsOnlyWhereNeeded() async throws {
        try await AppFixture.withTemporaryDirectory { directory in
            // An app file that cannot be read at all: whoever reads it fails, naming apps[0].path.
            let broken = directory.appendingPathComponent("Broken.ipa")
            try Data("not an archive".utf8).write(to: broken)
            let config = directory.appendingPathComponent("config.yml").path
            try """
            state_dir: \(directory.path)/state
            domains: [shop.example.com]
            apps:
              - path: \(broken.path)
            maintenance:
              - { name: release, days: [monday], start: "03:00", duration: 30m, domains: [claimed.example.com] }

            """.write(toFile: config, atomically: true, encoding: .utf8)
            let environment = ["HOME": "/nonexistent", "USER": "alice"]
            func run(_ arguments: [String]) async throws -> MonitorBinary.Completion {
                try await MonitorBinary.run(arguments + ["--config", config], environment: environment)
            }
            let checked = try await run(["config", "check"])
            #expect(checked.status != 0)
            #expect(checked.error.contains("apps[0].path"), "config check reads the app: \(checked.error)")

            let silence = try await run(["silence", "add", "shop.example.com", "--for", "1h", "--reason", "x"])
            #expect(silence.status == 0, "\(silence.output) \(silence.error)")
            for arguments in [["status"], ["status", "shop.example.com"], ["history", "shop.example.com"]] {
                let read = try await run(arguments)
                #expect(read.status != 2, "\(arguments): \(read.output) \(read.error)")
                #expect(!read.error.contains("apps[0]"), "\(arguments) read the app file: \(read.error)")
            }
            let status = try await run(["status"])
            #expect(status.output.contains("the app files of apps: are not read here"), "\(status.output)")
            let list = try await run(["silence", "list"])
            #expect(list.status == 0, "\(list.error)")
            #expect(!list.error.contains("apps[0]"))

            // Only the app's claims can say whether this name is watched: now the file is read, and its problem said.
            let other = try await run(["status", "other.example.com"])
            #expect(other.status == 2)
            #expect(other.error.contains("apps[0].path"), "\(other.error)")
        }
    }
}
