/// A compiled glob pattern: a nondeterministic automaton simulated one character at a time.
///
/// Matching costs O(text × states) whatever the pattern, so `*a*a*a*…b` cannot blow up the way a backtracking
/// regex engine does (WWDC20 warned that matching cost grows with pattern complexity). One-character variables
/// are set transitions; other variables are calls into an automaton compiled once per document (see
/// `GlobAutomaton+Calls.swift`), whose literal values share a trie, so `$(lang)`'s 615 codes cost a few dozen
/// states, not 615 branches.
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

    struct Call: Sendable {
        var subroutine: Int32
        var returnTo: Int32
    }

    /// Outgoing transitions of each state.
    let transitions: [[Transition]]
    /// Empty moves of each state (into a variable value's own chain).
    let epsilons: [[Int32]]
    /// Calls of each state into a variable's automaton: wherever that automaton accepts, `returnTo` continues.
    let calls: [[Call]]
    /// The variable automata that `calls` refer to.
    let subroutines: [GlobAutomaton]
    let accepting: [Bool]
    /// The text every match starts with (the pattern's literal head), checked before simulating: most rules
    /// begin with a distinct directory, so most rules are rejected without running the automaton.
    let prefix: [UInt32]

    init(builder: AutomatonBuilder, prefix: [UInt32]) {
        transitions = builder.states.map { state in
            state.transitions.map { Transition(step: $0.step, target: Int32($0.target)) }
        }
        accepting = builder.states.map(\.accepting)
        epsilons = builder.states.map { $0.epsilons.map { Int32($0) } }
        calls = builder.states.map { state in
            state.calls.map { Call(subroutine: Int32($0.subroutine), returnTo: Int32($0.returnTo)) }
        }
        subroutines = builder.subroutines
        self.prefix = prefix
    }

    /// True when the automaton accepts the whole of `text`; false also once `budget` is spent (one step per
    /// active state per scalar).
    ///
    /// Empty moves are followed while simulating rather than precomputed: a closure table would be quadratic
    /// for two variables in a row with thousands of values each.
    func matches(_ text: UnsafeBufferPointer<UInt32>, budget: inout StepBudget) -> Bool {
        if !prefix.isEmpty && !(text.count >= prefix.count && text.starts(with: prefix)) { return false }
        if !subroutines.isEmpty { return matchesWithCalls(text, budget: &budget) }
        var marks = [UInt32](repeating: 0, count: transitions.count)
        var generation: UInt32 = 1
        var current: [Int32] = []
        var next: [Int32] = []
        var stack: [Int32] = []
        enter(0, into: &current, marks: &marks, generation: generation, stack: &stack)
        for scalar in text {
            guard budget.spend(current.count + 1) else { return false }
            generation += 1
            next.removeAll(keepingCapacity: true)
            for state in current {
                for transition in transitions[Int(state)] where transition.step.accepts(scalar) {
                    enter(transition.target, into: &next, marks: &marks, generation: generation, stack: &stack)
                }
            }
            if next.isEmpty { return false }
            swap(&current, &next)
        }
        return current.contains { accepting[Int($0)] }
    }

    /// Adds `state` and everything its empty moves reach to `set`, each state once per generation.
    func enter(
        _ state: Int32, into set: inout [Int32], marks: inout [UInt32], generation: UInt32, stack: inout [Int32]
    ) {
        guard marks[Int(state)] != generation else { return }
        marks[Int(state)] = generation
        stack.append(state)
        while let reached = stack.popLast() {
            set.append(reached)
            for target in epsilons[Int(reached)] where marks[Int(target)] != generation {
                marks[Int(target)] = generation
                stack.append(target)
            }
        }
    }
}
