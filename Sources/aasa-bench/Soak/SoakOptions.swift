import BenchmarkSupport

/// What one soak run does; the chaos is scheduled as fractions of the run, so a short run is the same story faster.
struct SoakOptions {
    var minutes = 30.0
    var domains = 200
    /// The daemon's check interval in seconds.
    var interval = 10
    var binary = FixtureFleet.siblingMonitor

    /// The receiver is down (answers 503) from a sixth of the run to half of it: 10 minutes of 30.
    var outage: ClosedRange<Double> { minutes * 60 / 6...minutes * 60 / 2 }
    /// The state directory is full from two thirds of the run, for a minute (2 s for every minute of the run, at least
    /// 10 s, at most 60 s).
    var fullDisk: ClosedRange<Double> {
        let start = minutes * 60 * 2 / 3
        return start...start + min(60, max(10, minutes * 2))
    }
    /// Kills come every 5 to 28 s (16.5 s on average: about 109 in 30 minutes).
    let killGap: ClosedRange<Double> = 5...28
}
