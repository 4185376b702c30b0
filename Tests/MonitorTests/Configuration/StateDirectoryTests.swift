import Foundation
import MonitorCheck
import MonitorDaemon
import Testing

@Suite("state directory: the override, the configured directory and the per-user fallback")
struct StateDirectoryTests {
    /// A scratch directory removed afterwards, with a regular file `file` in it: nothing, not even root, can create
    /// a directory under a regular file, so `file/state` is an unusable state directory in every test run.
    static func withScratch<T>(_ body: (String) throws -> T) throws -> T {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("state-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: base) }
        try Data("not a directory".utf8).write(to: URL(fileURLWithPath: base + "/file"))
        return try body(base)
    }

    static func permissions(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return try #require(attributes[.posixPermissions] as? Int)
    }

    @Test("the configured directory is created with its parents, mode 0750")
    func createsConfigured() throws {
        try Self.withScratch { base in
            let wanted = base + "/var/lib/aasa-monitor"
            let directory = try StateDirectory.prepare(
                configured: wanted, override: nil, environment: ["HOME": base], isRoot: false)
            #expect(directory == StateDirectory(path: wanted))
            let mode = try Self.permissions(wanted)
            #expect(mode & 0o700 == 0o700 && mode & 0o007 == 0)
        }
    }

    @Test("an unusable configured directory falls back to XDG_STATE_HOME for a user, with a note")
    func fallsBack() throws {
        try Self.withScratch { base in
            let wanted = base + "/file/state"
            let environment = ["XDG_STATE_HOME": base + "/xdg", "HOME": base + "/home"]
            let directory = try StateDirectory.prepare(
                configured: wanted, override: nil, environment: environment, isRoot: false)
            #expect(directory.path == base + "/xdg/aasa-monitor")
            let note = try #require(directory.note)
            #expect(note.contains(wanted) && note.contains("--state-dir") && note.contains("Not a directory"))
            #expect(FileManager.default.fileExists(atPath: directory.path))
            let located = StateDirectory.locate(
                configured: wanted, override: nil, environment: environment, isRoot: false)
            #expect(located.path == directory.path)
        }
    }

    @Test("without XDG_STATE_HOME the fallback is ~/.local/state/aasa-monitor")
    func homeFallback() throws {
        #expect(StateDirectory.fallbackPath(environment: ["HOME": "/home/u"]) == "/home/u/.local/state/aasa-monitor")
        #expect(
            StateDirectory.fallbackPath(environment: ["HOME": "/home/u", "XDG_STATE_HOME": "relative"])
                == "/home/u/.local/state/aasa-monitor")
        #expect(StateDirectory.fallbackPath(environment: [:]) == nil)
    }

    @Test("root with an unusable directory gets an error that suggests --state-dir")
    func rootError() throws {
        try Self.withScratch { base in
            let wanted = base + "/file/state"
            let error = #expect(throws: StateDirectoryError.self) {
                try StateDirectory.prepare(configured: wanted, override: nil, environment: ["HOME": base], isRoot: true)
            }
            let text = error?.description ?? ""
            #expect(text.contains(wanted) && text.contains("--state-dir"))
        }
    }

    @Test("--state-dir wins and is never replaced by the fallback")
    func overrideWins() throws {
        try Self.withScratch { base in
            let chosen = base + "/chosen"
            let directory = try StateDirectory.prepare(
                configured: base + "/file/state", override: chosen, environment: ["HOME": base], isRoot: false)
            #expect(directory == StateDirectory(path: chosen))
            #expect(throws: StateDirectoryError.self) {
                try StateDirectory.prepare(
                    configured: nil, override: base + "/file/x", environment: ["HOME": base], isRoot: false)
            }
            #expect(
                StateDirectory.locate(configured: "/elsewhere", override: chosen, environment: [:], isRoot: false)
                    == StateDirectory(path: chosen))
        }
    }

    @Test("locate creates nothing")
    func locateCreatesNothing() throws {
        try Self.withScratch { base in
            let wanted = base + "/never/created"
            let located = StateDirectory.locate(
                configured: wanted, override: nil, environment: ["HOME": base + "/home"], isRoot: true)
            #expect(located.path == wanted)
            #expect(!FileManager.default.fileExists(atPath: base + "/never"))
            let asUser = StateDirectory.locate(
                configured: wanted, override: nil, environment: ["HOME": base + "/home"], isRoot: false)
            #expect(asUser.path == wanted)
            #expect(!FileManager.default.fileExists(atPath: base + "/home"))
        }
    }
}
