import AASA
import MonitorCore
import MonitorEvaluation

extension FindingStatus {
    /// The findings as a person reads them, with how deep each sits under its cause: every problem of its own
    /// (errors first, then warnings, then information; one that explains others before one that does not; then
    /// by source and code), each followed by the findings that follow from it, as `check` and the chat messages
    /// put them. A finding whose cause is not open stands on its own.
    package static func causeTree(_ findings: [FindingStatus]) -> [(finding: FindingStatus, depth: Int)] {
        // The cause a finding names is the open finding with its code and source (subjects belong to `expect.*`).
        func causeIndex(of finding: FindingStatus) -> Int? {
            guard let cause = finding.causedBy else { return nil }
            return findings.firstIndex { $0.code == cause.code && $0.source == cause.source && $0 != finding }
        }
        let causes = findings.map(causeIndex)
        var children = [[Int]](repeating: [], count: findings.count)
        var roots: [Int] = []
        for index in findings.indices {
            if let cause = causes[index] { children[cause].append(index) } else { roots.append(index) }
        }
        func precedes(_ lhs: Int, _ rhs: Int) -> Bool {
            let (a, b) = (findings[lhs], findings[rhs])
            if a.severity != b.severity { return a.severity > b.severity }
            if children[lhs].isEmpty != children[rhs].isEmpty { return !children[lhs].isEmpty }
            if a.source != b.source { return a.source < b.source }
            return (a.code, a.subject) < (b.code, b.subject)
        }
        var ordered: [(finding: FindingStatus, depth: Int)] = []
        var placed = Set<Int>()
        func place(_ index: Int, depth: Int) {
            guard placed.insert(index).inserted else { return }
            ordered.append((findings[index], depth))
            for child in children[index].sorted(by: precedes) { place(child, depth: depth + 1) }
        }
        for root in roots.sorted(by: precedes) { place(root, depth: 0) }
        // Causes that name each other (never written by the cause rules) still show, on their own.
        for index in findings.indices.sorted(by: precedes) { place(index, depth: 0) }
        return ordered
    }

    /// `causeTree` without the depths: the order of `status --json`'s `findings`.
    package static func causesFirst(_ findings: [FindingStatus]) -> [FindingStatus] {
        causeTree(findings).map(\.finding)
    }
}
