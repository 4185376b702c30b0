import Foundation

extension Orchestrator {
    /// The command line: fleet size, schedule, duration and repetitions.
    struct Options {
        var domains = 1_000
        var intervalSeconds = 60
        var seconds = 150
        var runs = 3
        var concurrency = 32
        var binary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("aasa-monitor").path

        init(parsing arguments: [String]) throws {
            var remaining = arguments[...]
            while let flag = remaining.popFirst() {
                guard let value = remaining.popFirst() else { throw BenchmarkError("\(flag) needs a value") }
                switch flag {
                case "--domains": domains = try Self.positive(value, flag)
                case "--interval": intervalSeconds = try Self.seconds(value, flag)
                case "--seconds": seconds = try Self.seconds(value, flag)
                case "--runs": runs = try Self.positive(value, flag)
                case "--concurrency": concurrency = try Self.positive(value, flag)
                case "--binary": binary = value
                default:
                    throw BenchmarkError(
                        "unknown option \(flag); expected --domains, --interval, --seconds, --runs, --concurrency, "
                            + "--binary")
                }
            }
        }

        private static func positive(_ value: String, _ flag: String) throws -> Int {
            guard let number = Int(value), number > 0 else {
                throw BenchmarkError("\(flag) \(value): expected a whole number above 0")
            }
            return number
        }

        /// `150`, `150s` or `2m`.
        private static func seconds(_ value: String, _ flag: String) throws -> Int {
            let units: [Character: Int] = ["s": 1, "m": 60, "h": 3_600]
            if let unit = value.last, let factor = units[unit] {
                return try positive(String(value.dropLast()), flag) * factor
            }
            return try positive(value, flag)
        }
    }
}

/// The benchmark could not run.
struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
