/// A pattern of Apple's glob language, split into its elements once so matching never re-reads the text.
///
/// `*` is zero or more characters, `?` exactly one, `?*` one or more; there is no escape syntax, so both are
/// always wildcards. `$(name)` stands for any one value of a substitution variable. A `$(` that is not closed by
/// `)` before another `$` or `(` is literal text, as is anything inside a variable's own values.
struct GlobPattern: Sendable, Hashable {
    enum Element: Sendable, Hashable {
        case literal(UInt32)
        case anyOne
        case anyRun
        case variable(String)
    }

    var elements: [Element]

    init(elements: [Element]) {
        self.elements = elements
    }

    /// Parses `text`; `allowVariables` is false for the values of a variable, which may not reference others.
    init(_ text: String, allowVariables: Bool = true) {
        let scalars = Array(text.unicodeScalars)
        var elements: [Element] = []
        elements.reserveCapacity(scalars.count)
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if allowVariables, scalar == "$", index + 1 < scalars.count, scalars[index + 1] == "(",
                let close = Self.variableEnd(in: scalars, nameStart: index + 2)
            {
                elements.append(.variable(String(String.UnicodeScalarView(scalars[(index + 2)..<close]))))
                index = close + 1
                continue
            }
            switch scalar {
            case "*": elements.append(.anyRun)
            case "?": elements.append(.anyOne)
            default: elements.append(.literal(scalar.value))
            }
            index += 1
        }
        self.elements = elements
    }

    /// The index of the `)` closing a variable name that starts at `nameStart`, or `nil` when the name is not
    /// valid (empty, or holding `$` or `(`), in which case the text is literal.
    private static func variableEnd(in scalars: [Unicode.Scalar], nameStart: Int) -> Int? {
        var index = nameStart
        while index < scalars.count {
            switch scalars[index] {
            case ")": return index > nameStart ? index : nil
            case "$", "(": return nil
            default: index += 1
            }
        }
        return nil
    }

    /// The names of the variables the pattern uses, in order of first use.
    var variableNames: [String] {
        var seen: Set<String> = []
        return elements.compactMap { element in
            guard case .variable(let name) = element, seen.insert(name).inserted else { return nil }
            return name
        }
    }

    /// True when the pattern is made only of `*`: it then matches every text, including the empty one.
    var matchesEverything: Bool {
        !elements.isEmpty && elements.allSatisfy { $0 == .anyRun }
    }

    /// True when the pattern holds no wildcard and no variable.
    var isLiteral: Bool {
        elements.allSatisfy { if case .literal = $0 { true } else { false } }
    }
}
