import Foundation

/// CPU time and peak memory of this process, from `getrusage(RUSAGE_SELF)`: what the benchmarks' bare clients
/// report about themselves.
public struct ResourceUsage: Sendable {
    public var cpuSeconds: Double
    public var maxRSSKilobytes: Int

    public static func now() -> ResourceUsage {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
        let system = Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
        return ResourceUsage(cpuSeconds: user + system, maxRSSKilobytes: Int(usage.ru_maxrss))
    }
}
