import MonitorEvaluation
/// One domain's place in the runtime's book: its committed entry and how many checks gave each verdict (the
/// `aasa_checks_total` counter).
///
/// A class, so the book's table holds one pointer per domain: a table of 100,000 inline entries (each a whole
/// `DomainState`, a few hundred bytes) kept a quarter of its buckets empty at full size and copied everything each
/// time it doubled, the steps of the daemon's memory as first checks came in.
package final class BookPage {
    package var entry: BookEntry
    package var checks = VerdictCounts()

    package init(entry: BookEntry) {
        self.entry = entry
    }
}

/// Checks per verdict, in six counters instead of a dictionary per domain (one allocation each).
package struct VerdictCounts {
    private var counts: (Int32, Int32, Int32, Int32, Int32, Int32) = (0, 0, 0, 0, 0, 0)

    package init() {}

    package mutating func add(_ verdict: Verdict) {
        switch verdict {
        case .ready: counts.0 += 1
        case .originBroken: counts.1 += 1
        case .expectationFailed: counts.2 += 1
        case .cdnMissing: counts.3 += 1
        case .cdnStale: counts.4 += 1
        case .unknown: counts.5 += 1
        }
    }

    /// The verdicts with at least one check, for `/metrics`.
    package var byVerdict: [Verdict: Int] {
        let all: [(Verdict, Int32)] = [
            (.ready, counts.0), (.originBroken, counts.1), (.expectationFailed, counts.2), (.cdnMissing, counts.3),
            (.cdnStale, counts.4), (.unknown, counts.5),
        ]
        return Dictionary(uniqueKeysWithValues: all.filter { $0.1 > 0 }.map { ($0.0, Int($0.1)) })
    }
}
