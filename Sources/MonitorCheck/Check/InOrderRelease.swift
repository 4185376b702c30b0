/// Releases values that arrive in any order in the order of their indices (0, 1, 2, …).
///
/// `check` prints each domain as soon as it and every earlier one are done; a slow first domain holds back the
/// later ones here. Callers store compact values (rendered text, encoded JSON), so what waits costs little.
package struct InOrderRelease<Value> {
    private var waiting: [Int: Value] = [:]
    /// The index released next.
    package private(set) var next = 0

    package init() {}

    /// How many values are held back behind a missing earlier one.
    package var heldBack: Int { waiting.count }

    /// Accepts the value at `index` and returns every value that can now be released, in order.
    package mutating func accept(_ value: Value, at index: Int) -> [Value] {
        guard index == next else {
            waiting[index] = value
            return []
        }
        var released = [value]
        next += 1
        while let following = waiting.removeValue(forKey: next) {
            released.append(following)
            next += 1
        }
        return released
    }
}
