/// A glob without multi-character variables (literals, `?`, `*`, one-character sets such as `$(digit)`), matched
/// segment by segment: `S0 * S1 * … * Sk`.
///
/// `S0` must sit at the start of the text, `Sk` at its end, and each middle segment is taken at its leftmost
/// place after the one before; leftmost is always safe because a `*` follows it. `*a*a*…*b` against a 100 KB
/// text is therefore one pass, where a state-set simulation carries every `*` at once (87 s for 120 KB against
/// 100 KB). Only a middle segment that holds `?` or a set and nearly matches everywhere costs text × segment; the
/// step budget bounds that. No allocation per decision: the text is a buffer the caller owns.
final class GlobProgram: Sendable {
    /// An atom that is not a scalar: `?`, or (with the set's index in the low bits) a one-character set.
    static let anyAtom: UInt32 = 0xFFFF_FFFF
    static let setFlag: UInt32 = 0x8000_0000

    /// Literal scalars, `anyAtom` or `setFlag | index`; stars are not atoms, they separate segments.
    let atoms: [UInt32]
    /// Segment `i` is `atoms[bounds[i]..<bounds[i + 1]]`; there is a `*` between consecutive segments.
    let bounds: [Int]
    let sets: [ScalarSet]

    /// Compiles elements holding no multi-character variable (the caller checks); `nil` when one is undefined,
    /// which makes the pattern match nothing.
    init?(_ elements: [GlobPattern.Element], variables: SubstitutionVariables, foldsCase: Bool) {
        var atoms: [UInt32] = []
        var bounds = [0]
        var sets: [ScalarSet] = []
        atoms.reserveCapacity(elements.count)
        for element in AutomatonBuilder.wildcardRunsOrdered(elements[...]) {
            switch element {
            case .literal(let scalar): atoms.append(foldsCase ? CaseFolding.fold(scalar) : scalar)
            case .anyOne: atoms.append(Self.anyAtom)
            case .anyRun: bounds.append(atoms.count)
            case .variable(let name):
                guard case .character(let members)? = variables.values(of: name) else { return nil }
                let folded = foldsCase ? Set(members.map { CaseFolding.fold($0) }) : members
                atoms.append(Self.setFlag | UInt32(sets.count))
                sets.append(ScalarSet(folded))
            }
        }
        bounds.append(atoms.count)
        self.atoms = atoms
        self.bounds = bounds
        self.sets = sets
    }

    /// True when the pattern holds a multi-character variable, which needs `GlobAutomaton` instead.
    static func needsAutomaton(_ elements: [GlobPattern.Element], variables: SubstitutionVariables) -> Bool {
        elements.contains { element in
            guard case .variable(let name) = element else { return false }
            if case .character? = variables.values(of: name) { return false }
            return variables.values(of: name) != nil
        }
    }

    /// True when the program accepts the whole of `text`; false also once `budget` is spent.
    func matches(_ text: UnsafeBufferPointer<UInt32>, budget: inout StepBudget) -> Bool {
        guard budget.spend(1), text.count >= atoms.count else { return false }
        return atoms.withUnsafeBufferPointer { atoms in
            bounds.withUnsafeBufferPointer { bounds in
                run(atoms: atoms, bounds: bounds, text: text, budget: &budget)
            }
        }
    }

    private func run(
        atoms: UnsafeBufferPointer<UInt32>, bounds: UnsafeBufferPointer<Int>, text: UnsafeBufferPointer<UInt32>,
        budget: inout StepBudget
    ) -> Bool {
        let last = bounds.count - 2
        let count = text.count
        var steps = 0
        defer { _ = budget.spend(steps) }
        if last == 0 {
            return count == atoms.count && equal(atoms, 0..<atoms.count, text, at: 0, steps: &steps)
        }
        let head = bounds[0]..<bounds[1]
        let tail = bounds[last]..<bounds[last + 1]
        guard equal(atoms, head, text, at: 0, steps: &steps),
            equal(atoms, tail, text, at: count - tail.count, steps: &steps)
        else { return false }
        var position = head.count
        let end = count - tail.count
        for segment in 1..<last {
            let range = bounds[segment]..<bounds[segment + 1]
            guard let found = find(atoms, range, text, from: position, end: end, steps: &steps, budget: &budget)
            else { return false }
            position = found + range.count
        }
        return true
    }

    /// The leftmost `start` in `from...end - segment.count` where the segment matches, or `nil`.
    private func find(
        _ atoms: UnsafeBufferPointer<UInt32>, _ segment: Range<Int>, _ text: UnsafeBufferPointer<UInt32>,
        from: Int, end: Int, steps: inout Int, budget: inout StepBudget
    ) -> Int? {
        let lastStart = end - segment.count
        guard from <= lastStart else { return nil }
        if segment.isEmpty { return from }
        let first = atoms[segment.lowerBound]
        var start = from
        while start <= lastStart {
            if first < Self.setFlag {
                // Skip to the next occurrence of a literal first atom: one step per scalar passed.
                let before = start
                while start <= lastStart && text[start] != first { start += 1 }
                steps += start - before
                if start > lastStart { return nil }
            }
            if equal(atoms, segment, text, at: start, steps: &steps) { return start }
            if steps > 4096 {
                guard budget.spend(steps) else { return nil }
                steps = 0
            }
            start += 1
        }
        return nil
    }

    @inline(__always)
    private func equal(
        _ atoms: UnsafeBufferPointer<UInt32>, _ segment: Range<Int>, _ text: UnsafeBufferPointer<UInt32>, at start: Int,
        steps: inout Int
    ) -> Bool {
        var offset = 0
        while offset < segment.count {
            let atom = atoms[segment.lowerBound + offset]
            let scalar = text[start + offset]
            if atom != scalar && !accepts(atom, scalar) {
                steps += offset + 1
                return false
            }
            offset += 1
        }
        steps += segment.count
        return true
    }

    /// Whether a non-literal atom accepts `scalar` (a literal atom that differs never does).
    @inline(__always)
    private func accepts(_ atom: UInt32, _ scalar: UInt32) -> Bool {
        if atom < Self.setFlag { return false }
        if atom == Self.anyAtom { return true }
        return sets[Int(atom & ~Self.setFlag)].contains(scalar)
    }
}

/// A one-character set (`$(digit)`, `$(alpha)`, …) as a bitmap for ASCII, where every predefined set lives.
struct ScalarSet: Sendable {
    var low: UInt64 = 0
    var high: UInt64 = 0
    var others: Set<UInt32> = []

    init(_ members: Set<UInt32>) {
        for member in members {
            if member < 64 {
                low |= 1 << UInt64(member)
            } else if member < 128 {
                high |= 1 << UInt64(member - 64)
            } else {
                others.insert(member)
            }
        }
    }

    @inline(__always)
    func contains(_ scalar: UInt32) -> Bool {
        if scalar < 64 { return low & (1 << UInt64(scalar)) != 0 }
        if scalar < 128 { return high & (1 << UInt64(scalar - 64)) != 0 }
        return !others.isEmpty && others.contains(scalar)
    }
}
