import BenchmarkSupport

/// What the scenario does, and how many times.
struct ExhaustionOptions: Sendable {
    var runs = 1
    var parallel = 1
    /// The daemon's `ulimit -n` (soft and hard).
    var limit = 96
    var connections = 120
    var holdSeconds = 6
    var rounds = 8
    var domains = 3
    /// Flood mode (issue 32 §2) when above 0: this many idle connections, each reopened as it closes, while
    /// `probes` health probes are timed.
    var flood = 0
    var probes = 10
    var binary = FixtureFleet.siblingMonitor
}
