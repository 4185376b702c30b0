import Foundation
import TestSupport
import Testing

/// Issue 26 §4 minor: `explain` with a 30 KB argument took 8.5 s finding the nearest code; it answers at once.
@Suite("explain with a huge argument")
struct ExplainLongArgumentTests {
    @Test("a 30 KB unknown code is refused with a suggestion within a second")
    func hugeArgument() async throws {
        let argument = String(repeating: "origin.bot_blockedx", count: 1_600)
        let started = ContinuousClock.now
        let explain = try await MonitorBinary.run(["explain", argument])
        let elapsed = ContinuousClock.now - started
        #expect(explain.status == 2, "\(explain.error)")
        #expect(explain.error.contains("the nearest is"), "\(explain.error.prefix(300))")
        #expect(elapsed < .seconds(1), "explain took \(elapsed)")
        print("explain with a \(argument.utf8.count)-byte argument: \(elapsed)")
    }
}
