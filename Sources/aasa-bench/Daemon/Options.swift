import BenchmarkSupport

extension DaemonOrchestrator {
    /// The command line: the fleet, its size, the schedule, duration and repetitions.
    struct Options {
        /// Which fleet serves the domains.
        enum Server: String, CaseIterable {
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
        /// Daemons of one cluster on a throwaway PostgreSQL (`store: postgres:`); 0 runs one daemon on SQLite. The
        /// first node's figures and readers are reported as for one daemon; CPU is summed over the nodes, checks are
        /// counted in the database, and PostgreSQL's WAL is counted.
        var clusterNodes = 0
        /// Seconds into each run when the last node of the cluster is killed with SIGKILL (failover); nil: never.
        var killNodeAt: Int?
        var binary = FixtureFleet.siblingMonitor

        static func positive(_ value: String, _ flag: String) throws -> Int {
            guard let number = Int(value), number > 0 else {
                throw BenchmarkError("\(flag) \(value): expected a whole number above 0")
            }
            return number
        }

        /// `150`, `150s` or `2m`.
        static func seconds(_ value: String, _ flag: String) throws -> Int {
            let units: [Character: Int] = ["s": 1, "m": 60, "h": 3_600]
            if let unit = value.last, let factor = units[unit] {
                return try positive(String(value.dropLast()), flag) * factor
            }
            return try positive(value, flag)
        }
    }
}
