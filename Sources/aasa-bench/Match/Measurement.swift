import Glibc

/// Timing helpers shared by the benchmarks.
enum Measurement {
    /// Runs `body` `runs` times and returns the median duration in seconds.
    static func medianSeconds(runs: Int = 7, _ body: () -> Void) -> Double {
        let clock = ContinuousClock()
        let durations = (0..<runs).map { _ in clock.measure(body) }.sorted()
        let median = durations[durations.count / 2]
        return Double(median.components.seconds) + Double(median.components.attoseconds) / 1e18
    }

    /// Runs `body` `runs` times; the median wall time and the median CPU time of this thread, in seconds.
    ///
    /// On a shared machine the wall time also counts the time other processes held the core, so the CPU time
    /// is the steadier figure for comparing code (both are printed).
    static func medianWallAndCPUSeconds(runs: Int = 7, _ body: () -> Void) -> (wall: Double, cpu: Double) {
        var walls: [Double] = []
        var cpus: [Double] = []
        for _ in 0..<runs {
            let wallStart = now(CLOCK_MONOTONIC)
            let cpuStart = now(CLOCK_THREAD_CPUTIME_ID)
            body()
            cpus.append(now(CLOCK_THREAD_CPUTIME_ID) - cpuStart)
            walls.append(now(CLOCK_MONOTONIC) - wallStart)
        }
        return (walls.sorted()[runs / 2], cpus.sorted()[runs / 2])
    }

    private static func now(_ clock: clockid_t) -> Double {
        var time = timespec()
        clock_gettime(clock, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// `value` with thousands separators, for readable rates.
    static func format(_ value: Double) -> String {
        let whole = Int(value.rounded())
        let digits = Array(String(whole))
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return out
    }
}
