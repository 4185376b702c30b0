import Foundation

extension Orchestrator {
    /// The command line: the fleet, its size, the schedule, duration and repetitions.
    struct Options {
        /// Which fleet serves the domains.
        enum Server: String {
            /// nginx-light on one TLS port (issue 24's measure); the limit is `BareFleet`.
            case nginx
            /// The in-process `FixtureServer`, which records requests; the limit is `BareReplay` of them.
            case fixture
        }

        var server = Server.nginx
        var domains = 1_000
        var intervalSeconds = 60
        var seconds = 150
        var runs = 3
        /// The daemon's `http.concurrency` (its default).
        var concurrency = 32
        /// Domains the bare client fetches at once (issue 24: 64).
        var bareConcurrency = 64
        /// Domains the bare client fetches (nginx only): `d0` to `dN-1`; nil for all.
        var bareDomains: Int?
        /// Times the bare client runs after each daemon run (nginx only); its median CPU is the limit. One run of
        /// about a second of CPU varied by ±15% on these shared machines, more than the gap being measured.
        var bareRuns = 3
        /// The cap on each reader at the end of a run: overview, `/metrics`, `status`.
        var readerCapSeconds = 120
        /// Where to copy each run's state directory after its clean stop (`run-N` inside), to look into what it
        /// stores; nil keeps nothing.
        var keepStateDirectory: String?
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
                case "--bare-concurrency": bareConcurrency = try Self.positive(value, flag)
                case "--bare-domains": bareDomains = try Self.positive(value, flag)
                case "--bare-runs": bareRuns = try Self.positive(value, flag)
                case "--reader-cap": readerCapSeconds = try Self.seconds(value, flag)
                case "--binary": binary = value
                case "--keep-state": keepStateDirectory = value
                case "--server":
                    guard let chosen = Server(rawValue: value) else {
                        throw BenchmarkError("--server \(value): expected nginx or fixture")
                    }
                    server = chosen
                default:
                    throw BenchmarkError(
                        "unknown option \(flag); expected --server, --domains, --interval, --seconds, --runs, "
                            + "--concurrency, --bare-concurrency, --bare-domains, --bare-runs, --reader-cap, --binary, --keep-state"
                    )
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
