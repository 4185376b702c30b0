import EndToEndSlot
import Foundation
import MonitorCheck
import MonitorDaemon
import TestSupport
import Testing

/// `check`'s progress on standard error: the rule, pure; then the real binary with standard error on a
/// pseudo-terminal (shown) and on a file (not one byte).
@Suite("check progress")
struct CheckProgressRuleTests {
    @Test(
        "shown only on a terminal, once the run has lasted 2 s, while a domain is still being checked",
        arguments: [
            (terminal: true, elapsed: 2.0, checked: 3, total: 20, shows: true),
            (terminal: true, elapsed: 1.9, checked: 3, total: 20, shows: false),
            (terminal: false, elapsed: 60, checked: 3, total: 20, shows: false),
            (terminal: true, elapsed: 60, checked: 20, total: 20, shows: false),
            (terminal: true, elapsed: 7, checked: 0, total: 1, shows: true),
        ])
    func rule(terminal: Bool, elapsed: Double, checked: Int, total: Int, shows: Bool) {
        let decision = CheckProgress.shows(
            standardErrorIsTerminal: terminal, elapsed: .milliseconds(Int64(elapsed * 1000)), checked: checked,
            total: total)
        #expect(decision == shows)
    }

    @Test("the line says how many domains of how many are done, and for how long the run has lasted")
    func line() {
        let many = CheckProgress.line(checked: 12, total: 20, elapsed: .seconds(8))
        #expect(many == "checking 20 domains: 12 done (8 s)")
        #expect(CheckProgress.line(checked: 0, total: 1, elapsed: .seconds(75)) == "checking 1 domain: 0 done (1 min)")
    }
}

@Suite("check progress on a terminal", .serialized, .timeLimit(.minutes(10)), .endToEndSlot)
struct CheckProgressTerminalTests {
    /// What a finished run with standard error on a pseudo-terminal wrote there, and on standard output (a file).
    struct TerminalRun {
        var status: Int32
        var output: String
        var terminal: String
    }

    /// Runs the binary with standard error on a new pseudo-terminal, reading the terminal while it runs so that
    /// its buffer never fills; the process is killed after `timeout` (a hang guard, not a check).
    static func runWithTerminal(_ arguments: [String], timeout: Duration = .seconds(120)) async throws -> TerminalRun {
        // posix_openpt, unlockpt and ptsname, by hand: Glibc's module hides them behind _XOPEN_SOURCE, and Swift
        // imports no `_IOW` macro, so the two ioctl numbers (asm-generic, x86_64 and arm64 alike) are written out.
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        try #require(master >= 0, "/dev/ptmx: \(errno)")
        defer { close(master) }
        var unlocked: CInt = 0
        var number: CUnsignedInt = 0
        let setLock: UInt = 0x4004_5431  // TIOCSPTLCK
        let getNumber: UInt = 0x8004_5430  // TIOCGPTN
        try #require(ioctl(master, setLock, &unlocked) == 0 && ioctl(master, getNumber, &number) == 0)
        let terminalSide = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
        try #require(terminalSide >= 0 && isatty(terminalSide) == 1)
        _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
        let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("tty-\(UUID()).out").path
        _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        let process = Process()
        process.executableURL = MonitorBinary.url
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
        process.standardError = FileHandle(fileDescriptor: terminalSide, closeOnDealloc: false)
        try process.run()
        close(terminalSide)
        var transcript: [UInt8] = []
        func drain() {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(master, &buffer, buffer.count)
                guard count > 0 else { return }
                transcript += buffer.prefix(count)
            }
        }
        let deadline = ContinuousClock.now + timeout
        while process.isRunning {
            if ContinuousClock.now >= deadline { kill(process.processIdentifier, SIGKILL) }
            drain()
            try await Task.sleep(for: .milliseconds(20))
        }
        drain()
        return TerminalRun(
            status: process.terminationStatus,
            output: (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "",
            terminal: String(decoding: transcript, as: UTF8.self))
    }

    @Test("a run past 2 s shows its progress on a terminal, rewritten in place, and clears it before it ends")
    func showsOnATerminal() async throws {
        // slow.origin.test answers in 7 s: the run lasts past the 2 s the line waits for, however fast the machine.
        try await CheckScenarios.with(cdnDomains: ["slow.origin.test"]) { scenarios in
            let run = try await Self.runWithTerminal(["check", "slow.origin.test"] + scenarios.commandOptions)
            #expect(run.status == 1, "\(run.output)\(run.terminal)")
            #expect(run.terminal.hasPrefix("\r\u{1B}[Kchecking 1 domain: 0 done ("), "\(run.terminal.debugDescription)")
            #expect(run.terminal.hasSuffix("\r\u{1B}[K"), "\(run.terminal.debugDescription)")
            #expect(!run.terminal.contains("\n"), "one line, rewritten: \(run.terminal.debugDescription)")
            #expect(!run.output.contains("checking"), "the report is not mixed with the progress")
            #expect(run.output.hasPrefix("slow.origin.test: origin_broken"), "\(run.output)")
        }
    }

    @Test("standard error that is not a terminal gets no progress: a file stays empty through a 7 s run")
    func silentWithoutATerminal() async throws {
        try await CheckScenarios.with(cdnDomains: ["slow.origin.test"]) { scenarios in
            let run = try await MonitorBinary.run(["check", "slow.origin.test"] + scenarios.commandOptions)
            #expect(run.status == 1, "\(run.output)\(run.error)")
            #expect(run.error.isEmpty, "\(run.error.debugDescription)")
        }
    }
}
