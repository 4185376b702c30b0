/// The values of a variable that holds no wildcard (`$(lang)`, `$(region)`, most custom ones) as a trie, so a
/// use of the variable is one walk along the text: no automaton, no allocation.
struct LiteralTrie: Sendable {
    /// Children of each node as ranges into `labels` and `targets`, sorted by label.
    private let children: [Range<Int>]
    private let labels: [UInt32]
    private let targets: [Int32]
    private let accepting: [Bool]

    /// The trie of `patterns`, or `nil` when one holds a wildcard.
    init?(_ patterns: [GlobPattern], foldsCase: Bool) {
        var nodes: [[UInt32: Int]] = [[:]]
        var accepting = [false]
        for pattern in patterns {
            var node = 0
            for element in pattern.elements {
                guard case .literal(let scalar) = element else { return nil }
                let label = foldsCase ? CaseFolding.fold(scalar) : scalar
                if let next = nodes[node][label] {
                    node = next
                } else {
                    nodes.append([:])
                    accepting.append(false)
                    nodes[node][label] = nodes.count - 1
                    node = nodes.count - 1
                }
            }
            accepting[node] = true
        }
        var children: [Range<Int>] = []
        var labels: [UInt32] = []
        var targets: [Int32] = []
        for node in nodes {
            let start = labels.count
            for (label, target) in node.sorted(by: { $0.key < $1.key }) {
                labels.append(label)
                targets.append(Int32(target))
            }
            children.append(start..<labels.count)
        }
        self.children = children
        self.labels = labels
        self.targets = targets
        self.accepting = accepting
    }

    /// Calls `found` with every end `q` such that a value equals `text[start..<q]`; returns the steps taken.
    @inline(__always)
    func forEachEnd(in text: UnsafeBufferPointer<UInt32>, from start: Int, _ found: (Int) -> Void) -> Int {
        var node = 0
        var position = start
        var steps = 1
        while true {
            if accepting[node] { found(position) }
            guard position < text.count, let next = child(of: node, text[position], steps: &steps) else {
                return steps
            }
            node = next
            position += 1
        }
    }

    private func child(of node: Int, _ label: UInt32, steps: inout Int) -> Int? {
        var low = children[node].lowerBound
        var high = children[node].upperBound
        while low < high {
            steps += 1
            let middle = (low + high) / 2
            if labels[middle] < label {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return low < children[node].upperBound && labels[low] == label ? Int(targets[low]) : nil
    }
}
