import EndToEndSlot
import Foundation
import TestSupport
import Testing

/// Issue 26 §4 minor: `explain` with a 30 KB argument took 8.5 s finding the nearest code. The nearest-code search
/// now compares at most `KeySuggestion.maximumCompared` (256) characters, so its cost no longer grows with the
/// argument; that bound is tested in MonitorCoreTests (`KeySuggestionBoundTests`), not by timing the binary on a
/// shared machine (a wall-clock limit here failed at 12 s under a loaded full run, though the binary takes 0.3 s).
@Suite("explain with a huge argument", .timeLimit(.minutes(10)), .endToEndSlot)
struct ExplainLongArgumentTests {
    @Test("a 30 KB unknown code is refused with a suggestion")
    func hugeArgument() async throws {
        let argument = String(repeating: "origin.bot_blockedx", count: 1_600)
        let explain = try await MonitorBinary.run(["explain", argument])
        #expect(explain.status == 2, "\(explain.error)")
        #expect(explain.error.contains("the nearest is"), "\(explain.error.prefix(300))")
    }
}
