/// One app's rules in decision order, indexed by the literal first path segment, compiled once per document.
///
/// Most rules start with a literal directory (`/shop12/*`), and a URL can only match rules whose first segment
/// equals its own. A decision therefore walks, in document order, the rules without a literal first segment
/// merged with the one bucket for the URL's first segment in each form the rules use (at most four), instead of
/// every rule. Buckets and keys live in flat arrays and are found by an open-addressing hash over scalars, so a
/// lookup allocates nothing.
struct RuleIndex: Sendable {
    /// Rule numbers (into `URLMatcher`'s rules), grouped per list; each list ascending.
    private let lists: [Int32]
    /// The list of rules that every URL must try.
    let unindexed: Range<Int>
    /// The forms (slots) that have indexed rules.
    let indexedSlots: [Int]
    /// How many distinct forms the app's rules use, to size the URL scratch.
    let formCount: Int
    private let table: [Int32]
    private let buckets: [Bucket]
    private let keys: [UInt32]

    private struct Bucket: Sendable {
        var slot: Int
        var hash: Int
        var key: Range<Int>
        var rules: Range<Int>
    }

    /// Indexes `order` (the app's rule numbers, ascending) over `rules`.
    init(order: [Int], rules: [CompiledRule]) {
        var unindexed: [Int32] = []
        var grouped: [[UInt32]: [Int32]] = [:]
        var slots: Set<Int> = []
        var forms: Set<Int> = []
        for number in order {
            let rule = rules[number]
            forms.insert(rule.form.slot)
            if let segment = rule.firstSegment {
                grouped[[UInt32(rule.form.slot)] + segment, default: []].append(Int32(number))
                slots.insert(rule.form.slot)
            } else {
                unindexed.append(Int32(number))
            }
        }
        var lists = unindexed
        var keys: [UInt32] = []
        var buckets: [Bucket] = []
        for (key, numbers) in grouped.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
            let segment = key.dropFirst()
            let keyStart = keys.count
            keys.append(contentsOf: segment)
            let listStart = lists.count
            lists.append(contentsOf: numbers)
            buckets.append(
                Bucket(
                    slot: Int(key[0]), hash: Self.hash(slot: Int(key[0]), segment),
                    key: keyStart..<keys.count, rules: listStart..<lists.count))
        }
        var size = 4
        while size < buckets.count * 2 { size *= 2 }
        var table = [Int32](repeating: -1, count: size)
        for (number, bucket) in buckets.enumerated() {
            var probe = bucket.hash & (size - 1)
            while table[probe] >= 0 { probe = (probe + 1) & (size - 1) }
            table[probe] = Int32(number)
        }
        self.lists = lists
        self.unindexed = 0..<unindexed.count
        self.indexedSlots = slots.sorted()
        self.formCount = forms.count
        self.table = table
        self.buckets = buckets
        self.keys = keys
    }

    /// The rule numbers of list `range` (from `unindexed` or `bucket`).
    func rule(at position: Int) -> Int { Int(lists[position]) }

    /// The rules whose first segment in form `slot` is `segment`; empty when none.
    func bucket(slot: Int, segment: UnsafeBufferPointer<UInt32>) -> Range<Int> {
        let hash = Self.hash(slot: slot, segment)
        let mask = table.count - 1
        var probe = hash & mask
        while true {
            let number = Int(table[probe])
            if number < 0 { return 0..<0 }
            let bucket = buckets[number]
            if bucket.hash == hash && bucket.slot == slot && keys[bucket.key].elementsEqual(segment) {
                return bucket.rules
            }
            probe = (probe + 1) & mask
        }
    }

    /// FNV-1a over the slot and the scalars: stable across runs, so the index is the same every time.
    private static func hash<Scalars: Sequence<UInt32>>(slot: Int, _ segment: Scalars) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(slot)
        for scalar in segment {
            hash = (hash ^ UInt64(scalar)) &* 0x100_0000_01b3
        }
        return Int(truncatingIfNeeded: hash & 0x7FFF_FFFF_FFFF_FFFF)
    }

    /// The first segment of a normalized path: after the leading `/`, up to the next `/` or the end.
    static func firstSegment(of path: UnsafeBufferPointer<UInt32>) -> UnsafeBufferPointer<UInt32> {
        let slash = UInt32(UInt8(ascii: "/"))
        guard path.count > 1 else { return UnsafeBufferPointer(start: nil, count: 0) }
        var end = 1
        while end < path.count && path[end] != slash { end += 1 }
        return UnsafeBufferPointer(rebasing: path[1..<end])
    }
}
