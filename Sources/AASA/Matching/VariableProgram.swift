/// A glob whose multi-character variables all hold wildcard-free values (`/$(lang)_$(region)/shop/*`), matched
/// by a depth-first walk over (pattern position, text position) pairs, each visited at most once.
///
/// That is the same bound as the automaton (pattern × text) but with a bitmap and one stack taken from
/// `withUnsafeTemporaryAllocation` instead of state sets, memo tables and per-variable runs, and it stops at the
/// first way through. Each variable is a `LiteralTrie` walk. Above `maximumPairs` the caller uses the automaton.
final class VariableProgram: Sendable {
    static let maximumPairs = 1 << 20
    private static let anyOp: UInt32 = 0xFFFF_FFFF
    private static let starOp: UInt32 = 0xFFFF_FFFE
    private static let setFlag: UInt32 = 0x8000_0000
    private static let trieFlag: UInt32 = 0xC000_0000

    /// Literal scalars, `anyOp`, `starOp`, `setFlag | set`, `trieFlag | trie`.
    private let ops: [UInt32]
    private let sets: [ScalarSet]
    private let tries: [LiteralTrie]

    /// `nil` when a variable is undefined or has a value with a wildcard (the automaton handles those).
    init?(_ elements: [GlobPattern.Element], variables: SubstitutionVariables, foldsCase: Bool) {
        var ops: [UInt32] = []
        var sets: [ScalarSet] = []
        var tries: [LiteralTrie] = []
        for element in AutomatonBuilder.wildcardRunsOrdered(elements[...]) {
            switch element {
            case .literal(let scalar): ops.append(foldsCase ? CaseFolding.fold(scalar) : scalar)
            case .anyOne: ops.append(Self.anyOp)
            case .anyRun: ops.append(Self.starOp)
            case .variable(let name):
                switch variables.values(of: name) {
                case .character(let members)?:
                    ops.append(Self.setFlag | UInt32(sets.count))
                    sets.append(ScalarSet(foldsCase ? Set(members.map { CaseFolding.fold($0) }) : members))
                case .alternatives?:
                    guard let trie = variables.trie(of: name, foldsCase: foldsCase) else { return nil }
                    ops.append(Self.trieFlag | UInt32(tries.count))
                    tries.append(trie)
                case nil:
                    return nil
                }
            }
        }
        self.ops = ops
        self.sets = sets
        self.tries = tries
    }

    /// Whether the pattern accepts the whole of `text` (false also once `budget` is spent), or `nil` when the
    /// text is too long for the walk's bitmap.
    func matches(_ text: UnsafeBufferPointer<UInt32>, budget: inout StepBudget) -> Bool? {
        let width = text.count + 1
        let pairs = (ops.count + 1) * width
        guard pairs <= Self.maximumPairs else { return nil }
        return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: (pairs + 63) / 64) { visited in
            visited.initialize(repeating: 0)
            return withUnsafeTemporaryAllocation(of: Int32.self, capacity: pairs) { stack in
                ops.withUnsafeBufferPointer { ops in
                    walk(ops, text, width: width, visited: visited, stack: stack, budget: &budget)
                }
            }
        }
    }

    private func walk(
        _ ops: UnsafeBufferPointer<UInt32>, _ text: UnsafeBufferPointer<UInt32>, width: Int,
        visited: UnsafeMutableBufferPointer<UInt64>, stack: UnsafeMutableBufferPointer<Int32>,
        budget: inout StepBudget
    ) -> Bool {
        var top = 0
        var steps = 0
        defer { _ = budget.spend(steps) }
        func push(_ op: Int, _ position: Int) {
            let pair = op * width + position
            let (word, bit) = (pair >> 6, UInt64(1) << UInt64(pair & 63))
            if visited[word] & bit != 0 { return }
            visited[word] |= bit
            stack[top] = Int32(pair)
            top += 1
        }
        push(0, 0)
        while top > 0 {
            top -= 1
            let pair = Int(stack[top])
            let (index, position) = pair.quotientAndRemainder(dividingBy: width)
            steps += 1
            if steps > 4096 {
                guard budget.spend(steps) else { return false }
                steps = 0
            }
            if index == ops.count {
                if position == text.count { return true }
                continue
            }
            let op = ops[index]
            if op == Self.starOp {
                if position < text.count { push(index, position + 1) }
                push(index + 1, position)
            } else if op >= Self.trieFlag && op != Self.anyOp {
                steps += tries[Int(op & ~Self.trieFlag)].forEachEnd(in: text, from: position) { push(index + 1, $0) }
            } else if position < text.count {
                let scalar = text[position]
                let accepted =
                    op == scalar || op == Self.anyOp
                    || (op >= Self.setFlag && op < Self.trieFlag && sets[Int(op & ~Self.setFlag)].contains(scalar))
                if accepted { push(index + 1, position + 1) }
            }
        }
        return false
    }
}
