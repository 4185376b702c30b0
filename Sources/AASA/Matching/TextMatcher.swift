/// One compiled pattern of a rule (path, whole query, query item value or fragment), compiled once per document.
///
/// Plain globs run as a `GlobProgram` (segment search, no allocation). Patterns using a multi-character variable
/// (`$(lang)`, custom values) need the automaton with variable calls; a `LiteralFilter` first rejects, in one
/// pass, the texts that lack the pattern's literal pieces, so the automaton runs only for likely matches.
enum TextMatcher: Sendable {
    /// A pattern using an undefined variable: it matches nothing.
    case nothing
    /// A glob; for a path ending in `/*`, `orWithout` is the same pattern without that tail (rule P4).
    case glob(GlobProgram, orWithout: GlobProgram?)
    /// Multi-character variables with wildcard-free values; `automaton` for texts too long for the walk.
    case variables(VariableProgram, orWithout: VariableProgram?, automaton: GlobAutomaton, filter: LiteralFilter)
    case automaton(GlobAutomaton, filter: LiteralFilter)

    /// Compiles `elements`; with `optionalSlashStarTail`, a final `/*` may also match nothing at all, which is
    /// how Apple lets `/buy/*` match `/buy` (path rule P4).
    static func compile(
        _ elements: [GlobPattern.Element], variables: SubstitutionVariables, foldsCase: Bool,
        optionalSlashStarTail: Bool = false
    ) -> TextMatcher {
        let slash = GlobPattern.Element.literal(UInt32(UInt8(ascii: "/")))
        let hasTail =
            optionalSlashStarTail && elements.count >= 2 && elements.last == .anyRun
            && elements[elements.count - 2] == slash
        let body = hasTail ? Array(elements.dropLast(2)) : elements
        if GlobProgram.needsAutomaton(elements, variables: variables) {
            let automaton = AutomatonBuilder.compile(
                GlobPattern(elements: elements), variables: variables, foldsCase: foldsCase,
                optionalSlashStarTail: optionalSlashStarTail)
            let filter = LiteralFilter(body, foldsCase: foldsCase, endIsFixed: !hasTail)
            if let program = VariableProgram(elements, variables: variables, foldsCase: foldsCase),
                let without = hasTail ? VariableProgram(body, variables: variables, foldsCase: foldsCase) : program
            {
                return .variables(program, orWithout: hasTail ? without : nil, automaton: automaton, filter: filter)
            }
            return .automaton(automaton, filter: filter)
        }
        guard let program = GlobProgram(elements, variables: variables, foldsCase: foldsCase) else { return .nothing }
        let without = hasTail ? GlobProgram(body, variables: variables, foldsCase: foldsCase) : nil
        return .glob(program, orWithout: without)
    }

    func matches(_ text: UnsafeBufferPointer<UInt32>, budget: inout StepBudget) -> Bool {
        switch self {
        case .nothing:
            return false
        case .glob(let program, let without):
            if program.matches(text, budget: &budget) { return true }
            return without?.matches(text, budget: &budget) ?? false
        case .variables(let program, let without, let automaton, let filter):
            guard filter.admits(text, budget: &budget) else { return false }
            guard let full = program.matches(text, budget: &budget) else {
                return automaton.matches(text, budget: &budget)
            }
            if full || without == nil { return full }
            return without?.matches(text, budget: &budget) ?? automaton.matches(text, budget: &budget)
        case .automaton(let automaton, let filter):
            return filter.admits(text, budget: &budget) && automaton.matches(text, budget: &budget)
        }
    }

    /// The pattern's size in atoms or states, for the message when a decision runs out of budget.
    var size: Int {
        switch self {
        case .nothing: 0
        case .glob(let program, _): program.atoms.count + program.bounds.count - 2
        case .variables(_, _, let automaton, _), .automaton(let automaton, _): automaton.transitions.count
        }
    }
}

/// The literal pieces of a pattern, which every matching text holds in order: a cheap necessary condition.
///
/// Found leftmost one after another, which finds them whenever any placement exists; the first piece must sit at
/// the start when the pattern starts with it, and the last at the end when the pattern ends with it.
final class LiteralFilter: Sendable {
    let pieces: [[UInt32]]
    let anchoredStart: Bool
    let anchoredEnd: Bool

    init(_ elements: [GlobPattern.Element], foldsCase: Bool, endIsFixed: Bool) {
        var pieces: [[UInt32]] = []
        var piece: [UInt32] = []
        for element in elements {
            if case .literal(let scalar) = element {
                piece.append(foldsCase ? CaseFolding.fold(scalar) : scalar)
            } else if !piece.isEmpty {
                pieces.append(piece)
                piece = []
            }
        }
        if !piece.isEmpty { pieces.append(piece) }
        self.pieces = pieces
        anchoredStart = elements.first.map { if case .literal = $0 { true } else { false } } ?? false
        anchoredEnd = endIsFixed && (elements.last.map { if case .literal = $0 { true } else { false } } ?? false)
    }

    func admits(_ text: UnsafeBufferPointer<UInt32>, budget: inout StepBudget) -> Bool {
        var steps = 0
        defer { _ = budget.spend(steps) }
        var middle = pieces[...]
        var position = 0
        var end = text.count
        if anchoredStart, let first = middle.first {
            guard Self.equal(first, text, at: 0, end: end, steps: &steps) else { return false }
            position = first.count
            middle = middle.dropFirst()
        }
        if anchoredEnd, let last = middle.last {
            guard end - last.count >= position, Self.equal(last, text, at: end - last.count, end: end, steps: &steps)
            else { return false }
            end -= last.count
            middle = middle.dropLast()
        }
        for piece in middle {
            var start = position
            while true {
                guard start + piece.count <= end else { return false }
                if Self.equal(piece, text, at: start, end: end, steps: &steps) { break }
                if steps > 4096 {
                    guard budget.spend(steps) else { return false }
                    steps = 0
                }
                start += 1
            }
            position = start + piece.count
        }
        return true
    }

    private static func equal(
        _ piece: [UInt32], _ text: UnsafeBufferPointer<UInt32>, at start: Int, end: Int, steps: inout Int
    ) -> Bool {
        guard start + piece.count <= end else { return false }
        for (offset, scalar) in piece.enumerated() where text[start + offset] != scalar {
            steps += offset + 1
            return false
        }
        steps += piece.count
        return true
    }
}
