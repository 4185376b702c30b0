/// "Did you mean" for unknown keys: the closest allowed key within a small edit distance.
enum KeySuggestion {
    /// The allowed key closest to `key`, if it is close enough to be a typo (at most 2 edits, and fewer than half
    /// the key's length).
    static func closest(to key: String, among allowed: [String]) -> String? {
        let lowered = key.lowercased().map { $0 == "-" ? "_" : $0 }
        guard lowered.count <= 64 else { return nil }
        var best: (key: String, distance: Int)?
        for candidate in allowed {
            let distance = editDistance(lowered, Array(candidate))
            if distance <= 2, distance * 2 < max(lowered.count, 2), distance < (best?.distance ?? .max) {
                best = (candidate, distance)
            }
        }
        return best?.key
    }

    /// The most characters of either side `editDistance` compares. Keys and finding codes are short; a 30 KB
    /// argument to `explain` made its suggestion take 8.5 s (O(n·m) per code, issue 26 §4). Past the cut the distance
    /// to a short candidate only grows with the length, which ranks nothing.
    static let maximumCompared = 256

    /// Levenshtein distance with transpositions counted as one edit (`inetrval` → `interval`), over at most the
    /// first `maximumCompared` characters of each side.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.count > maximumCompared || b.count > maximumCompared {
            return editDistance(Array(a.prefix(maximumCompared)), Array(b.prefix(maximumCompared)))
        }
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previousPrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [Int](repeating: 0, count: b.count + 1)
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previousPrevious[j - 2] + 1)
                }
            }
            previousPrevious = previous
            previous = current
        }
        return previous[b.count]
    }
}
