/// Builds a `GlobAutomaton` from a pattern, applying case folding and wiring in substitution variables.
struct AutomatonBuilder {
    struct State {
        var transitions: [(step: GlobAutomaton.Step, target: Int)] = []
        var epsilons: [Int] = []
        /// Runs of a variable's shared automaton (by index into `subroutines`) that continue at `returnTo`.
        var calls: [(subroutine: Int, returnTo: Int)] = []
        var accepting = false
    }

    private(set) var states: [State] = [State()]
    /// The automata of the multi-character variables this pattern uses, each once however often it appears.
    private(set) var subroutines: [GlobAutomaton] = []
    private var subroutineIndex: [String: Int] = [:]
    private let variables: SubstitutionVariables
    private let foldsCase: Bool

    private init(variables: SubstitutionVariables, foldsCase: Bool) {
        self.variables = variables
        self.foldsCase = foldsCase
    }

    /// Compiles `pattern`. With `optionalSlashStarTail`, a final `/*` may also match nothing at all, which is how
    /// Apple lets `/buy/*` match `/buy` (path rule P4).
    static func compile(
        _ pattern: GlobPattern,
        variables: SubstitutionVariables,
        foldsCase: Bool,
        optionalSlashStarTail: Bool = false
    ) -> GlobAutomaton {
        var builder = AutomatonBuilder(variables: variables, foldsCase: foldsCase)
        var elements = pattern.elements[...]
        let slash = UInt32(UInt8(ascii: "/"))
        let hasTail =
            optionalSlashStarTail && elements.count >= 2 && elements.last == .anyRun
            && elements[elements.index(before: elements.endIndex - 1)] == .literal(slash)
        if hasTail { elements = elements.dropLast(2) }
        if let end = builder.addSequence(elements, from: 0) {
            builder.states[end].accepting = true
            if hasTail {
                let afterSlash = builder.newState()
                builder.states[end].transitions.append((.scalar(slash), afterSlash))
                builder.addSelfLoop(afterSlash)
                builder.states[afterSlash].accepting = true
            }
        }
        return GlobAutomaton(builder: builder, prefix: builder.literalHead(of: elements))
    }

    /// The folded literal elements before the first wildcard or variable.
    private func literalHead(of elements: ArraySlice<GlobPattern.Element>) -> [UInt32] {
        var head: [UInt32] = []
        for element in elements {
            guard case .literal(let scalar) = element else { break }
            head.append(folded(scalar))
        }
        return head
    }

    private mutating func newState() -> Int {
        states.append(State())
        return states.count - 1
    }

    private mutating func addSelfLoop(_ state: Int) {
        if !states[state].transitions.contains(where: { $0.step == .any && $0.target == state }) {
            states[state].transitions.append((.any, state))
        }
    }

    private func folded(_ scalar: UInt32) -> UInt32 {
        foldsCase ? CaseFolding.fold(scalar) : scalar
    }

    /// Adds the elements as a chain starting at `start`; returns the state reached at the end, or `nil` when an
    /// undefined variable makes the rest unreachable.
    private mutating func addSequence(_ elements: ArraySlice<GlobPattern.Element>, from start: Int) -> Int? {
        var current = start
        for element in Self.wildcardRunsOrdered(elements) {
            switch element {
            case .literal(let scalar):
                let next = newState()
                states[current].transitions.append((.scalar(folded(scalar)), next))
                current = next
            case .anyOne:
                let next = newState()
                states[current].transitions.append((.any, next))
                current = next
            case .anyRun:
                addSelfLoop(current)
            case .variable(let name):
                guard let next = addVariable(named: name, from: current) else { return nil }
                current = next
            }
        }
        return current
    }

    /// The elements with each run of wildcards rewritten as its `?`s followed by its `*`s (`*?*?` → `??**`), which
    /// matches the same texts. Left as written, every `?` of `*?*?*?…` would get a looping state, and the
    /// simulation would carry all of them at once: minutes for a long pattern against a long URL.
    static func wildcardRunsOrdered(_ elements: ArraySlice<GlobPattern.Element>) -> [GlobPattern.Element] {
        var result: [GlobPattern.Element] = []
        result.reserveCapacity(elements.count)
        var stars = 0
        for element in elements {
            switch element {
            case .anyOne:
                result.append(.anyOne)
            case .anyRun:
                stars += 1
            default:
                if stars > 0 { result.append(.anyRun) }
                stars = 0
                result.append(element)
            }
        }
        if stars > 0 { result.append(.anyRun) }
        return result
    }

    /// Adds one variable between `start` and a new state, which it returns; `nil` when it is undefined.
    ///
    /// A one-character variable is a set transition. Any other variable is a call into the automaton
    /// `SubstitutionVariables` compiled once per document: inlining its values at every use would cost uses ×
    /// values states, which a 128 KiB file can push into the tens of millions.
    private mutating func addVariable(named name: String, from start: Int) -> Int? {
        guard let values = variables.values(of: name) else { return nil }
        let next = newState()
        switch values {
        case .character(let members):
            states[start].transitions.append((.set(Set(members.map { folded($0) })), next))
        case .alternatives:
            guard let automaton = variables.automaton(of: name, foldsCase: foldsCase) else { return nil }
            let index: Int
            if let known = subroutineIndex[name] {
                index = known
            } else {
                index = subroutines.count
                subroutines.append(automaton)
                subroutineIndex[name] = index
            }
            states[start].calls.append((index, next))
        }
        return next
    }

    /// Compiles a variable's values into one automaton that accepts any of them.
    ///
    /// Values without `*` share a trie; those with `*` get a chain of their own (reached by an empty move from
    /// the root), since a loop inside a shared trie node would also apply to its siblings.
    static func alternatives(_ patterns: [GlobPattern], foldsCase: Bool) -> GlobAutomaton {
        var builder = AutomatonBuilder(variables: SubstitutionVariables([]), foldsCase: foldsCase)
        var trieNodes: Set<Int> = [0]
        for pattern in patterns {
            if pattern.elements.contains(.anyRun) {
                let chainStart = builder.newState()
                builder.states[0].epsilons.append(chainStart)
                if let end = builder.addSequence(pattern.elements[...], from: chainStart) {
                    builder.states[end].accepting = true
                }
            } else {
                let end = builder.addTriePath(pattern.elements, from: 0, trieNodes: &trieNodes)
                builder.states[end].accepting = true
            }
        }
        return GlobAutomaton(builder: builder, prefix: [])
    }

    private mutating func addTriePath(
        _ elements: [GlobPattern.Element], from root: Int, trieNodes: inout Set<Int>
    ) -> Int {
        var current = root
        for element in elements {
            let step: GlobAutomaton.Step
            switch element {
            case .literal(let scalar): step = .scalar(folded(scalar))
            case .anyOne: step = .any
            case .anyRun, .variable: continue  // excluded by the caller; values never hold variables
            }
            if let existing = states[current].transitions.first(where: {
                $0.step == step && trieNodes.contains($0.target)
            }) {
                current = existing.target
            } else {
                let next = newState()
                trieNodes.insert(next)
                states[current].transitions.append((step, next))
                current = next
            }
        }
        return current
    }
}
