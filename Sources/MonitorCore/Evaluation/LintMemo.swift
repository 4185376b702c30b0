import AASA
import Synchronization

/// What the AASA core makes of a body's bytes alone: its parse and lint, and its canonical form and hash.
struct LintedBody: Sendable {
    var parsed: ParseResult
    var canonicalHash: String?
    var canonicalText: String?

    init(_ body: [UInt8]) {
        parsed = AASALint.lint(body)
        if let document = parsed.document {
            let canonical = CanonicalJSON.bytes(of: document.json)
            canonicalHash = CanonicalJSON.hash(canonicalBytes: canonical)
            canonicalText = String(decoding: canonical, as: UTF8.self)
        }
    }
}

/// Remembers the last distinct bodies' `LintedBody`, so the same bytes are parsed, linted, canonicalised and hashed
/// once: Apple's copy is often byte for byte the origin's, and a fleet often serves one file from many domains.
///
/// A hit is the same bytes, compared whole, so a result never differs from linting again; only the CPU does. It
/// holds at most `maximumEntries` bodies and `maximumBytes` of them (the least recently used leave first), and a
/// body larger than a quarter of that is linted without being kept.
public final class LintMemo: Sendable {
    public let maximumEntries: Int
    public let maximumBytes: Int
    private let state = Mutex(State())

    private struct State {
        var entries: [[UInt8]: Entry] = [:]
        var bytes = 0
        var uses: UInt64 = 0
        var hits = 0
    }

    private struct Entry {
        var linted: LintedBody
        var lastUse: UInt64
    }

    public init(maximumEntries: Int = 64, maximumBytes: Int = 1 << 20) {
        self.maximumEntries = max(1, maximumEntries)
        self.maximumBytes = max(0, maximumBytes)
    }

    /// How many bodies it holds now.
    public var count: Int { state.withLock { $0.entries.count } }
    /// How many times a body was found and not linted again.
    public var hits: Int { state.withLock { $0.hits } }

    /// The lint of `body`, remembered or made now (outside the lock: two threads may both lint a new body once).
    func linted(_ body: [UInt8]) -> LintedBody {
        let remembered = state.withLock { state -> LintedBody? in
            guard let entry = state.entries[body] else { return nil }
            state.uses += 1
            state.hits += 1
            state.entries[body]?.lastUse = state.uses
            return entry.linted
        }
        if let remembered { return remembered }
        let linted = LintedBody(body)
        guard body.count <= maximumBytes / 4 else { return linted }
        state.withLock { state in
            state.uses += 1
            // Linted meanwhile by another check: the body is counted already.
            guard state.entries.updateValue(Entry(linted: linted, lastUse: state.uses), forKey: body) == nil else {
                return
            }
            state.bytes += body.count
            while state.entries.count > maximumEntries || state.bytes > maximumBytes,
                let oldest = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key
            {
                state.entries[oldest] = nil
                state.bytes -= oldest.count
            }
        }
        return linted
    }
}

extension Optional where Wrapped == LintMemo {
    /// The lint of `body`, through the memo when there is one.
    func linted(_ body: [UInt8]) -> LintedBody {
        self?.linted(body) ?? LintedBody(body)
    }
}
