extension Array where Element: Comparable {
    /// The middle value once sorted (the upper one of an even count), `nil` for no values: benchmarks quote medians of
    /// several runs because the machines are shared and noisy.
    public var median: Element? {
        isEmpty ? nil : sorted()[count / 2]
    }
}
