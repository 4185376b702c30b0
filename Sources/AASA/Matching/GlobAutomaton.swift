/// A compiled glob pattern: a nondeterministic automaton simulated one character at a time.
///
/// Matching costs O(text × states) whatever the pattern, so `*a*a*a*…b` cannot blow up the way a backtracking
/// regex engine does (WWDC20 warned that matching cost grows with pattern complexity). Substitution variables
/// become alternatives inside the automaton; literal alternatives share a trie, so `$(lang)`'s 615 codes cost a
/// few dozen states, not 615 branches.
struct GlobAutomaton: Sendable {
    enum Step: Sendable, Hashable {
        case scalar(UInt32)
        case any
        case set(Set<UInt32>)

        func accepts(_ scalar: UInt32) -> Bool {
            switch self {
            case .scalar(let expected): expected == scalar
            case .any: true
            case .set(let members): members.contains(scalar)
            }
        }
    }

    struct Transition: Sendable {
        var step: Step
        var target: Int32
    }

    /// Outgoing transitions of each state.
    let transitions: [[Transition]]
    /// Every state reachable from each state through empty moves, itself included.
    let closures: [[Int32]]
    let accepting: [Bool]
    /// A fast path: the text the pattern must equal, when it has no wildcard and no variable.
    let literal: [UInt32]?

    init(builder: AutomatonBuilder, literal: [UInt32]?) {
        transitions = builder.states.map { state in
            state.transitions.map { Transition(step: $0.step, target: Int32($0.target)) }
        }
        accepting = builder.states.map(\.accepting)
        closures = Self.closures(of: builder.states)
        self.literal = literal
    }

    /// True when the automaton accepts the whole of `text`.
    func matches(_ text: [UInt32]) -> Bool {
        if let literal { return literal == text }
        var marks = [UInt32](repeating: 0, count: transitions.count)
        var generation: UInt32 = 1
        var current: [Int32] = []
        var next: [Int32] = []
        for state in closures[0] where marks[Int(state)] != generation {
            marks[Int(state)] = generation
            current.append(state)
        }
        for scalar in text {
            generation += 1
            next.removeAll(keepingCapacity: true)
            for state in current {
                for transition in transitions[Int(state)] where transition.step.accepts(scalar) {
                    for reached in closures[Int(transition.target)] where marks[Int(reached)] != generation {
                        marks[Int(reached)] = generation
                        next.append(reached)
                    }
                }
            }
            if next.isEmpty { return false }
            swap(&current, &next)
        }
        return current.contains { accepting[Int($0)] }
    }

    private static func closures(of states: [AutomatonBuilder.State]) -> [[Int32]] {
        states.indices.map { origin in
            var seen: Set<Int> = [origin]
            var stack = [origin]
            var order: [Int32] = []
            while let state = stack.popLast() {
                order.append(Int32(state))
                for target in states[state].epsilons where seen.insert(target).inserted {
                    stack.append(target)
                }
            }
            return order
        }
    }
}
