import Foundation

/// What one soak run does; the chaos is scheduled as fractions of the run, so a short run is the same story faster.
struct SoakOptions {
    var minutes = 30.0
    var domains = 200
    /// The daemon's check interval in seconds.
    var interval = 10
    var binary: String

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

    init(parsing arguments: [String]) throws {
        binary =
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
                "aasa-monitor"
            ).path
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            guard let value = rest.popFirst() else { throw SoakError("\(flag) needs a value") }
            switch flag {
            case "--minutes": minutes = try Self.number(flag, value)
            case "--domains": domains = Int(try Self.number(flag, value))
            case "--interval": interval = Int(try Self.number(flag, value))
            case "--binary": binary = value
            default: throw SoakError("unknown option \(flag); see the usage in main.swift")
            }
        }
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw SoakError("no aasa-monitor binary at \(binary): build it or give --binary")
        }
    }

    private static func number(_ flag: String, _ value: String) throws -> Double {
        guard let number = Double(value), number > 0 else { throw SoakError("\(flag) \(value): a positive number") }
        return number
    }
}

struct SoakError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
