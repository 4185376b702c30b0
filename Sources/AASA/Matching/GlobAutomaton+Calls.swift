/// Simulation of automata that call variable automata.
///
/// A variable used in a pattern is not copied into it: its automaton is compiled once per document and run from
/// each text position where the pattern reaches it. The positions where it accepts are remembered (per variable
/// and start position, for one text), so a variable used a thousand times costs one run per start position.
/// Total work stays polynomial: positions × (pattern states + variable runs), never uses × values.
extension GlobAutomaton {
    func matchesWithCalls(_ text: UnsafeBufferPointer<UInt32>, budget: inout StepBudget) -> Bool {
        var run = CallingRun(automaton: self, text: text)
        return run.accepts(budget: &budget)
    }

    /// Every position `q ≥ start` such that the automaton accepts `text[start..<q]`.
    ///
    /// Used for variable automata, which never call others (a variable's values may not reference variables).
    func acceptingEnds(in text: UnsafeBufferPointer<UInt32>, from start: Int, budget: inout StepBudget) -> [Int] {
        var marks = [UInt32](repeating: 0, count: transitions.count)
        var generation: UInt32 = 1
        var current: [Int32] = []
        var next: [Int32] = []
        var stack: [Int32] = []
        var ends: [Int] = []
        enter(0, into: &current, marks: &marks, generation: generation, stack: &stack)
        var position = start
        while true {
            if current.contains(where: { accepting[Int($0)] }) { ends.append(position) }
            guard position < text.count, budget.spend(current.count + 1) else { break }
            generation += 1
            next.removeAll(keepingCapacity: true)
            for state in current {
                for transition in transitions[Int(state)] where transition.step.accepts(text[position]) {
                    enter(transition.target, into: &next, marks: &marks, generation: generation, stack: &stack)
                }
            }
            if next.isEmpty { break }
            swap(&current, &next)
            position += 1
        }
        return ends
    }
}

/// One simulation of a calling automaton over one text: the states active at each position, the states that
/// variable runs will resume at later positions, and the memo of variable runs.
private struct CallingRun {
    let automaton: GlobAutomaton
    let text: UnsafeBufferPointer<UInt32>
    /// States to enter at each position, scheduled by variable runs that ended there.
    var resumptions: [[Int32]]
    var scheduled = 0
    var memo: [Int: [Int]] = [:]
    var marks: [UInt32]
    var generation: UInt32 = 0

    init(automaton: GlobAutomaton, text: UnsafeBufferPointer<UInt32>) {
        self.automaton = automaton
        self.text = text
        resumptions = Array(repeating: [], count: text.count + 1)
        marks = Array(repeating: 0, count: automaton.transitions.count)
    }

    mutating func accepts(budget: inout StepBudget) -> Bool {
        var arriving: [Int32] = [0]
        for position in 0...text.count {
            generation += 1
            scheduled -= resumptions[position].count
            arriving += resumptions[position]
            resumptions[position] = []
            let active = close(arriving, at: position, budget: &budget)
            guard budget.spend(active.count + 1) else { return false }
            if position == text.count {
                return active.contains { automaton.accepting[Int($0)] }
            }
            arriving = []
            for state in active {
                for transition in automaton.transitions[Int(state)] where transition.step.accepts(text[position]) {
                    arriving.append(transition.target)
                }
            }
            if arriving.isEmpty && scheduled == 0 { return false }
        }
        return false
    }

    /// The states active at `position`: `arriving` and everything reachable by empty moves and by variable runs
    /// that match the empty text; runs that end later are scheduled at their end positions.
    private mutating func close(_ arriving: [Int32], at position: Int, budget: inout StepBudget) -> [Int32] {
        var active: [Int32] = []
        var stack: [Int32] = []
        for state in arriving where marks[Int(state)] != generation {
            marks[Int(state)] = generation
            stack.append(state)
        }
        while let state = stack.popLast() {
            active.append(state)
            for target in automaton.epsilons[Int(state)] where marks[Int(target)] != generation {
                marks[Int(target)] = generation
                stack.append(target)
            }
            for call in automaton.calls[Int(state)] {
                for end in ends(of: Int(call.subroutine), from: position, budget: &budget) {
                    if end == position {
                        if marks[Int(call.returnTo)] != generation {
                            marks[Int(call.returnTo)] = generation
                            stack.append(call.returnTo)
                        }
                    } else {
                        resumptions[end].append(call.returnTo)
                        scheduled += 1
                    }
                }
            }
        }
        return active
    }

    private mutating func ends(of subroutine: Int, from position: Int, budget: inout StepBudget) -> [Int] {
        let key = subroutine * (text.count + 1) + position
        if let known = memo[key] { return known }
        let ends = automaton.subroutines[subroutine].acceptingEnds(in: text, from: position, budget: &budget)
        memo[key] = ends
        return ends
    }
}
