/// Aligns two lists (rules, paths) so a rule inserted at the top reads as one addition, not as every later
/// rule changing: a longest common subsequence, with the unmatched items between two anchors paired up as
/// "changed" in order.
enum SequenceAlignment {
    enum Step: Hashable {
        case same(Int, Int)
        case removed(Int)
        case added(Int)
        case changed(Int, Int)
    }

    /// Above this many cells the quadratic table is skipped and items are compared position by position.
    static let maximumCells = 4_000_000

    static func align(_ lhs: [String], _ rhs: [String]) -> [Step] {
        guard lhs.count * rhs.count <= maximumCells else { return positional(lhs, rhs) }
        // lengths[i][j] = LCS length of lhs[i...] and rhs[j...]
        var lengths = Array(repeating: Array(repeating: 0, count: rhs.count + 1), count: lhs.count + 1)
        for i in stride(from: lhs.count - 1, through: 0, by: -1) {
            for j in stride(from: rhs.count - 1, through: 0, by: -1) {
                lengths[i][j] = lhs[i] == rhs[j] ? lengths[i + 1][j + 1] + 1 : max(lengths[i + 1][j], lengths[i][j + 1])
            }
        }
        var steps: [Step] = []
        var removed: [Int] = []
        var added: [Int] = []
        func flushGap() {
            let paired = min(removed.count, added.count)
            for k in 0..<paired { steps.append(.changed(removed[k], added[k])) }
            steps += removed.dropFirst(paired).map(Step.removed)
            steps += added.dropFirst(paired).map(Step.added)
            removed = []
            added = []
        }
        var i = 0
        var j = 0
        while i < lhs.count || j < rhs.count {
            if i < lhs.count && j < rhs.count && lhs[i] == rhs[j] {
                flushGap()
                steps.append(.same(i, j))
                i += 1
                j += 1
            } else if j < rhs.count && (i == lhs.count || lengths[i][j + 1] >= lengths[i + 1][j]) {
                added.append(j)
                j += 1
            } else {
                removed.append(i)
                i += 1
            }
        }
        flushGap()
        return steps
    }

    private static func positional(_ lhs: [String], _ rhs: [String]) -> [Step] {
        var steps: [Step] = []
        for index in 0..<max(lhs.count, rhs.count) {
            switch (index < lhs.count, index < rhs.count) {
            case (true, true): steps.append(lhs[index] == rhs[index] ? .same(index, index) : .changed(index, index))
            case (true, false): steps.append(.removed(index))
            default: steps.append(.added(index))
            }
        }
        return steps
    }
}
