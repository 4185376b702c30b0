import EndToEndSlot
import Foundation
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 35 §19 with the real binary: on a terminal (a pseudo-terminal here) times are local with their offset and
/// honour `TZ`; piped text and JSON stay UTC.
@Suite("terminal time", .serialized, .timeLimit(.minutes(10)), .endToEndSlot)
struct TerminalTimeTests {
    /// A configuration whose state directory is a fresh temporary one, so `silence add` may create its database.
    static func withConfiguration<Result>(_ body: (String) async throws -> Result) async throws -> Result {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("aasa-tz-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("config.yml").path
        try "state_dir: \(directory.path)/state\ndomains: [shop.example.com]\n"
            .write(toFile: config, atomically: true, encoding: .utf8)
        return try await body(config)
    }

    static func environment(tz: String) -> [String: String] {
        ["TZ": tz, "HOME": "/nonexistent", "PATH": "/usr/bin:/bin", "USER": "alice"]
    }

    @Test("silence add and list: +09:00 on a terminal with TZ=Asia/Tokyo, Z when piped, Z in JSON on a terminal")
    func silenceTimes() async throws {
        try await Self.withConfiguration { config in
            let tokyo = Self.environment(tz: "Asia/Tokyo")
            let added = try await PseudoTerminal.run(
                ["silence", "add", "--all", "--for", "1h", "--reason", "moving", "--config", config],
                environment: tokyo)
            #expect(added.status == 0, "\(added.output)")
            #expect(
                added.output.contains(#/silenced until \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+09:00 by alice/#),
                "\(added.output)")

            let listed = try await PseudoTerminal.run(["silence", "list", "--config", config], environment: tokyo)
            #expect(listed.output.contains(#/silenced until \S+\+09:00 by alice: moving/#), "\(listed.output)")
            let newYork = try await PseudoTerminal.run(
                ["silence", "list", "--config", config], environment: Self.environment(tz: "America/New_York"))
            #expect(newYork.output.contains(#/silenced until \S+-0[45]:00 by alice/#), "\(newYork.output)")

            // JSON is for programs: UTC, whatever the terminal.
            let json = try await PseudoTerminal.run(
                ["silence", "list", "--json", "--config", config], environment: tokyo)
            #expect(json.output.contains(#/"ends_at" ?: ?"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"/#), "\(json.output)")
            #expect(json.output.contains(#/silenced until \S+Z by alice/#), "\(json.output)")
            #expect(!json.output.contains("+09:00"))

            // Piped (not a terminal): UTC, as before, so scripts read one form.
            let piped = try await MonitorBinary.run(["silence", "list", "--config", config], environment: tokyo)
            #expect(piped.status == 0, "\(piped.error)")
            #expect(
                piped.output.contains(#/silenced until \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ by alice/#), "\(piped.output)")
            #expect(!piped.output.contains("+09:00"))
        }
    }
}

/// Runs the binary with its standard output on a pseudo-terminal, as a person's shell runs it.
enum PseudoTerminal {
    struct Completion {
        var status: Int32
        /// What the terminal received, with the line discipline's `\r\n` read back as `\n`.
        var output: String
    }

    static func run(_ arguments: [String], environment: [String: String]) async throws -> Completion {
        // glibc declares these only for _XOPEN_SOURCE, which the Glibc module is not built with: look them up.
        typealias OpenPT = @convention(c) (Int32) -> Int32
        typealias Name = @convention(c) (Int32) -> UnsafeMutablePointer<CChar>?
        func symbol<T>(_ name: String, as type: T.Type) throws -> T {
            guard let address = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else {
                throw PseudoTerminalError(what: "no \(name) in libc")
            }
            return unsafeBitCast(address, to: type)
        }
        let openPT = try symbol("posix_openpt", as: OpenPT.self)
        let grant = try symbol("grantpt", as: OpenPT.self)
        let unlock = try symbol("unlockpt", as: OpenPT.self)
        let slaveName = try symbol("ptsname", as: Name.self)
        let master = openPT(O_RDWR | O_NOCTTY)
        guard master >= 0, grant(master) == 0, unlock(master) == 0, let name = slaveName(master) else {
            throw PseudoTerminalError(what: "no pseudo-terminal: \(String(cString: strerror(errno)))")
        }
        let slave = open(name, O_RDWR | O_NOCTTY)
        guard slave >= 0 else { throw PseudoTerminalError(what: "cannot open \(String(cString: name))") }
        let collector = Collector()
        // Read while the child writes (a full terminal buffer would block it); the read ends with EIO once every
        // copy of the slave side is closed.
        let reader = Thread {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                collector.bytes.withLock { $0 += buffer[0..<count] }
            }
            collector.finished.withLock { $0 = true }
        }
        reader.start()
        let process: RunningMonitor
        do {
            process = try RunningMonitor(
                arguments: arguments, environment: environment,
                standardOutput: FileHandle(fileDescriptor: slave, closeOnDealloc: false))
        } catch {
            close(slave)
            throw error
        }
        // The child has its own copy now: once it exits, no slave side is left open and the reader sees the end.
        close(slave)
        let status = try await process.waitForExit()
        let deadline = ContinuousClock.now + .seconds(30)
        while !collector.finished.withLock({ $0 }), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        close(master)
        let bytes = collector.bytes.withLock { $0 }
        let output = String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
        return Completion(status: status, output: output)
    }
}

/// What the reading thread collected, shared with the test's task.
private final class Collector: Sendable {
    let bytes = Mutex<[UInt8]>([])
    let finished = Mutex(false)
}

struct PseudoTerminalError: Error, CustomStringConvertible {
    var what: String
    var description: String { what }
}
