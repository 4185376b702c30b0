import Foundation
import TestSupport

/// One finished child process: how it ended, what it printed, and its own CPU time and peak memory.
///
/// CPU from `wait4`, so it is the child's alone: the fixture server in this process and any other child are not
/// counted. Peak memory is the child's `VmHWM`, read every 10 ms while it runs (its last reading): `wait4`'s
/// `ru_maxrss` would include this process's own size at the spawn, which Linux carries across `exec`. Both `check`
/// and the bare client are measured this same way, process start included.
public struct ChildRun {
    public var status: Int32
    public var output: String
    public var wallSeconds: Double
    public var cpuSeconds: Double
    public var maxRSSKilobytes: Int

    /// Runs `path` with `arguments`, its standard output to a temporary file and its standard error discarded.
    public static func run(_ path: String, _ arguments: [String]) throws -> ChildRun {
        let outputPath = FileManager.default.temporaryDirectory
            .appendingPathComponent("aasa-bench-\(UUID().uuidString).out").path
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let environment = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv + environment { free(pointer) }
        }
        let start = ContinuousClock.now
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, environment)
        guard spawned == 0 else {
            throw BenchmarkError("cannot start \(path): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        var usage = rusage()
        var peak = 0
        while true {
            let waited = wait4(pid, &status, WNOHANG, &usage)
            if waited == pid { break }
            guard waited == 0 || errno == EINTR else {
                throw BenchmarkError("wait4 failed: \(String(cString: strerror(errno)))")
            }
            // VmHWM only grows, so the last reading before the exit is the peak but for its last 10 ms.
            peak = max(peak, ResourceUsage.peakRSSKilobytes(pid: pid) ?? 0)
            usleep(10_000)
        }
        let elapsed = ContinuousClock.now - start
        let cpu =
            Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec)
            + Double(usage.ru_stime.tv_usec) / 1e6
        let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        let exited = status & 0x7f == 0
        return ChildRun(
            status: exited ? (status >> 8) & 0xff : 128 + (status & 0x7f), output: output,
            wallSeconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18,
            cpuSeconds: cpu, maxRSSKilobytes: peak)
    }
}
