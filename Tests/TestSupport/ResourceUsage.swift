import Foundation

/// CPU time and peak memory of this process: what the benchmarks' bare clients report about themselves.
///
/// Peak memory is `VmHWM` from `/proc/self/status`, not `getrusage`'s `ru_maxrss`: Linux carries `ru_maxrss` across
/// `exec` from the process that spawned it, so a client started by a benchmark holding a 10,000-domain fixture
/// reported that benchmark's size (`/bin/true` spawned from a 300 MB process reports 320 MB).
public struct ResourceUsage: Sendable {
    public var cpuSeconds: Double
    public var maxRSSKilobytes: Int

    public static func now() -> ResourceUsage {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
        let system = Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
        return ResourceUsage(cpuSeconds: user + system, maxRSSKilobytes: peakRSSKilobytes(pid: nil) ?? 0)
    }

    /// `VmHWM` (peak resident set of the current address space) of process `pid`, or of this process; `nil` once the
    /// process has exited.
    public static func peakRSSKilobytes(pid: pid_t?) -> Int? {
        let path = pid.map { "/proc/\($0)/status" } ?? "/proc/self/status"
        guard let status = try? String(contentsOfFile: path, encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
        else { return nil }
        // `VmHWM:\t   65432 kB`
        return Int(line.dropFirst("VmHWM:".count).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "")
    }
}
