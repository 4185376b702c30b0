/// Timing helpers shared by the benchmarks.
enum Measurement {
    /// Runs `body` `runs` times and returns the median duration in seconds.
    static func medianSeconds(runs: Int = 7, _ body: () -> Void) -> Double {
        let clock = ContinuousClock()
        let durations = (0..<runs).map { _ in clock.measure(body) }.sorted()
        let median = durations[durations.count / 2]
        return Double(median.components.seconds) + Double(median.components.attoseconds) / 1e18
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
