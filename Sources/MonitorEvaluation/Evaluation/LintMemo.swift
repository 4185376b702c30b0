import AASA
import Synchronization

/// What the AASA core makes of a body's bytes alone: its parse and lint, and its document's canonical form.
struct LintedBody: Sendable {
    var parsed: ParseResult
    /// The document's canonical text and hash; present exactly when `parsed.document` is.
    var canonical: (hash: String, text: String)?

    init(_ body: [UInt8]) {
        parsed = AASALint.lint(body)
        if let document = parsed.document {
            let bytes = CanonicalJSON.bytes(of: document.json)
            canonical = (CanonicalJSON.hash(canonicalBytes: bytes), String(decoding: bytes, as: UTF8.self))
        }
    }
}

/// Remembers the last distinct bodies' `LintedBody`, so the same bytes are parsed, linted, canonicalised and hashed
/// once: Apple's copy is often byte for byte the origin's, and a fleet often serves one file from many domains.
///
/// A hit is the same bytes, compared whole, so a result never differs from linting again; only the CPU does. It
/// holds at most `maximumEntries` bodies and about `maximumBytes` of them with what was made of them (body and
/// canonical text, and 256 bytes a finding: a hostile file can carry tens of thousands); the least recently used
/// leave first, and a result costing more than a quarter of `maximumBytes` is returned without being kept.
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
        var cost: Int
    }

    public init(maximumEntries: Int = 64, maximumBytes: Int = 1 << 20) {
        self.maximumEntries = max(1, maximumEntries)
        self.maximumBytes = max(0, maximumBytes)
    }

    /// How many bodies it holds now.
    public var count: Int { state.withLock { $0.entries.count } }
    /// About how many bytes it holds (the measure `maximumBytes` bounds).
    public var bytes: Int { state.withLock { $0.bytes } }
    /// How many times a body was found and not linted again.
    public var hits: Int { state.withLock { $0.hits } }

    /// The lint of `body`, remembered or made now (outside the lock: two threads may both lint a new body once).
    func linted(_ body: [UInt8]) -> LintedBody {
        let remembered = state.withLock { state -> LintedBody? in
            guard let index = state.entries.index(forKey: body) else { return nil }
            state.uses += 1
            state.hits += 1
            state.entries.values[index].lastUse = state.uses
            return state.entries.values[index].linted
        }
        if let remembered { return remembered }
        let linted = LintedBody(body)
        let cost = body.count + (linted.canonical?.text.utf8.count ?? 0) + 256 * linted.parsed.findings.count
        guard cost <= maximumBytes / 4 else { return linted }
        state.withLock { state in
            state.uses += 1
            // Linted meanwhile by another check: it is counted already.
            guard state.entries.index(forKey: body) == nil else { return }
            state.entries[body] = Entry(linted: linted, lastUse: state.uses, cost: cost)
            state.bytes += cost
            while state.entries.count > maximumEntries || state.bytes > maximumBytes,
                let oldest = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse })
            {
                state.entries[oldest.key] = nil
                state.bytes -= oldest.value.cost
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
