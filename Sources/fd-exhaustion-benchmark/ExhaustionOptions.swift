import Foundation

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
    var binary: String

    init(parsing arguments: [String]) throws {
        binary =
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("aasa-monitor").path
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            guard let value = rest.popFirst() else { throw ExhaustionError("\(flag) needs a value") }
            if flag == "--binary" {
                binary = value
                continue
            }
            guard let number = Int(value), number > 0 else {
                throw ExhaustionError("\(flag) \(value): a positive whole number")
            }
            switch flag {
            case "--runs": runs = number
            case "--parallel": parallel = number
            case "--limit": limit = number
            case "--connections": connections = number
            case "--hold": holdSeconds = number
            case "--rounds": rounds = number
            case "--domains": domains = number
            case "--flood": flood = number
            case "--probes": probes = number
            default: throw ExhaustionError("unknown option \(flag); see the usage in main.swift")
            }
        }
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw ExhaustionError("no aasa-monitor binary at \(binary): build it or give --binary")
        }
    }
}

struct ExhaustionError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
