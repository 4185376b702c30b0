/// One compiled pattern of a rule (path, whole query, query item value or fragment), compiled once per document.
///
/// Plain globs run as a `GlobProgram` (segment search, no allocation). Patterns using a multi-character variable
/// (`$(lang)`, custom values) need the automaton with variable calls; a `LiteralFilter` first rejects, in one
/// pass, the texts that lack the pattern's literal pieces, so the automaton runs only for likely matches.
///
/// A final class with `let` parts, so a decision reaches them without copying (and retaining) enum payloads.
final class TextMatcher: Sendable {
    private enum Kind {
        /// A pattern using an undefined variable: it matches nothing.
        case nothing
        /// A glob; for a path ending in `/*`, `without` is the same pattern without that tail (rule P4).
        case glob
        /// Multi-character variables with wildcard-free values; the automaton for texts too long for the walk.
        case variables
        case automaton
    }

    private let kind: Kind
    private let program: GlobProgram?
    private let without: GlobProgram?
    private let walk: VariableProgram?
    private let walkWithout: VariableProgram?
    private let automaton: GlobAutomaton?
    private let filter: LiteralFilter?

    private init(
        _ kind: Kind, program: GlobProgram? = nil, without: GlobProgram? = nil, walk: VariableProgram? = nil,
        walkWithout: VariableProgram? = nil, automaton: GlobAutomaton? = nil, filter: LiteralFilter? = nil
    ) {
        self.kind = kind
        self.program = program
        self.without = without
        self.walk = walk
        self.walkWithout = walkWithout
        self.automaton = automaton
        self.filter = filter
    }

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
            if let walk = VariableProgram(elements, variables: variables, foldsCase: foldsCase),
                let without = hasTail ? VariableProgram(body, variables: variables, foldsCase: foldsCase) : walk
            {
                return TextMatcher(
                    .variables, walk: walk, walkWithout: hasTail ? without : nil, automaton: automaton, filter: filter)
            }
            return TextMatcher(.automaton, automaton: automaton, filter: filter)
        }
        guard let program = GlobProgram(elements, variables: variables, foldsCase: foldsCase) else {
            return TextMatcher(.nothing)
        }
        let without = hasTail ? GlobProgram(body, variables: variables, foldsCase: foldsCase) : nil
        return TextMatcher(.glob, program: program, without: without)
    }

    func matches(_ text: UnsafeBufferPointer<UInt32>, budget: inout StepBudget) -> Bool {
        switch kind {
        case .nothing:
            return false
        case .glob:
            if program?.matches(text, budget: &budget) == true { return true }
            return without?.matches(text, budget: &budget) ?? false
        case .variables:
            guard filter?.admits(text, budget: &budget) == true else { return false }
            guard let full = walk?.matches(text, budget: &budget) else { return runAutomaton(text, &budget) }
            if full || walkWithout == nil { return full }
            return walkWithout?.matches(text, budget: &budget) ?? runAutomaton(text, &budget)
        case .automaton:
            return filter?.admits(text, budget: &budget) == true && runAutomaton(text, &budget)
        }
    }

    private func runAutomaton(_ text: UnsafeBufferPointer<UInt32>, _ budget: inout StepBudget) -> Bool {
        automaton?.matches(text, budget: &budget) ?? false
    }

    /// The pattern's size in atoms or states, for the message when a decision runs out of budget.
    var size: Int {
        if let program { return program.atoms.count + program.bounds.count - 2 }
        return automaton?.transitions.count ?? 0
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
