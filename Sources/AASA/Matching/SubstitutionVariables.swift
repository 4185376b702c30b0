import Foundation

/// What `$(name)` can stand for in one document: its custom variables, then Apple's predefined ones.
struct SubstitutionVariables: Sendable {
    /// The values of one variable.
    enum Values: Sendable, Hashable {
        /// Exactly one character from the set (the predefined `$(alpha)`, `$(digit)`, …).
        case character(Set<UInt32>)
        /// Any one of these patterns (custom values may hold `*` and `?`; `$(region)`, `$(lang)`).
        case alternatives([GlobPattern])
    }

    /// The names Apple predefines; a document may redefine them, and then its own values win.
    static let predefinedNames: Set<String> = ["alpha", "upper", "lower", "alnum", "digit", "xdigit", "region", "lang"]

    private let custom: [String: Values]
    /// Each custom variable compiled once, case kept (index 0) and folded (index 1).
    private let customAutomata: [String: [GlobAutomaton]]

    init(_ variables: [SubstitutionVariable]) {
        var custom: [String: Values] = [:]
        var automata: [String: [GlobAutomaton]] = [:]
        var tries: [String: [LiteralTrie]] = [:]
        for variable in variables {
            let patterns = variable.values.map { GlobPattern($0, allowVariables: false) }
            custom[variable.name] = .alternatives(patterns)
            automata[variable.name] = Self.compile(patterns)
            tries[variable.name] = Self.tries(patterns)
        }
        self.custom = custom
        customAutomata = automata
        customTries = tries
    }

    /// Each custom variable without wildcards as a trie, case kept (index 0) and folded (index 1).
    private let customTries: [String: [LiteralTrie]]

    /// The trie of a multi-character variable whose values hold no wildcard, or `nil`.
    func trie(of name: String, foldsCase: Bool) -> LiteralTrie? {
        guard let pair = custom[name] == nil ? Self.predefinedTries[name] : customTries[name] else { return nil }
        return pair[foldsCase ? 1 : 0]
    }

    private static func tries(_ patterns: [GlobPattern]) -> [LiteralTrie]? {
        guard let kept = LiteralTrie(patterns, foldsCase: false), let folded = LiteralTrie(patterns, foldsCase: true)
        else { return nil }
        return [kept, folded]
    }

    private static let predefinedTries: [String: [LiteralTrie]] = predefined.compactMapValues { values in
        guard case .alternatives(let patterns) = values else { return nil }
        return tries(patterns)
    }

    /// The shared automaton of a multi-character variable (custom, `$(region)` or `$(lang)`).
    func automaton(of name: String, foldsCase: Bool) -> GlobAutomaton? {
        guard let pair = customAutomata[name] ?? Self.predefinedAutomata[name] else { return nil }
        return pair[foldsCase ? 1 : 0]
    }

    private static func compile(_ patterns: [GlobPattern]) -> [GlobAutomaton] {
        [false, true].map { AutomatonBuilder.alternatives(patterns, foldsCase: $0) }
    }

    private static let predefinedAutomata: [String: [GlobAutomaton]] = predefined.compactMapValues { values in
        guard case .alternatives(let patterns) = values else { return nil }
        return compile(patterns)
    }

    /// The values of `name`, or `nil` when it is neither defined nor predefined (then it matches nothing).
    func values(of name: String) -> Values? {
        custom[name] ?? Self.predefined[name]
    }

    func isDefined(_ name: String) -> Bool {
        custom[name] != nil || Self.predefined[name] != nil
    }

    private static let predefined: [String: Values] = {
        let upper = Set<UInt32>(0x41...0x5A)
        let lower = Set<UInt32>(0x61...0x7A)
        let digit = Set<UInt32>(0x30...0x39)
        let hexLetters = Set<UInt32>(0x41...0x46).union(0x61...0x66)
        return [
            "alpha": .character(upper.union(lower)),
            "upper": .character(upper),
            "lower": .character(lower),
            "alnum": .character(upper.union(lower).union(digit)),
            "digit": .character(digit),
            "xdigit": .character(digit.union(hexLetters)),
            "region": .alternatives(isoRegionCodes.map { GlobPattern($0, allowVariables: false) }),
            "lang": .alternatives(isoLanguageCodes.map { GlobPattern($0, allowVariables: false) }),
        ]
    }()

    /// Two-letter alphabetic ISO region codes from Foundation's list (`GB`, `US`; never `UK`).
    ///
    /// Foundation also lists 31 numeric UN M.49 areas (`001`, `419`); whether devices accept those is neither
    /// documented nor observed, so they are left out rather than guessed.
    static let isoRegionCodes: [String] = Locale.Region.isoRegions.map(\.identifier).filter { code in
        code.unicodeScalars.count == 2 && code.unicodeScalars.allSatisfy { $0.properties.isAlphabetic }
    }

    /// ISO language codes from Foundation's list: two- and three-letter, lower case (`en`, `fil`).
    static let isoLanguageCodes: [String] = Locale.LanguageCode.isoLanguageCodes.map(\.identifier)
}
