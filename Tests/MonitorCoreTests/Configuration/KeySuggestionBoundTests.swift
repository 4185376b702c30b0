import Testing

@testable import MonitorEvaluation

/// The nearest-name search compares at most `maximumCompared` characters of each side, so a 30 KB typo costs what a
/// 256-character one does (issue 26 §4: `explain` took 8.5 s). Tested by what is compared, not by a clock.
@Suite("nearest-name search is bounded")
struct KeySuggestionBoundTests {
    @Test("a long argument is compared by its first 256 characters only")
    func boundedComparison() {
        let long = Array(String(repeating: "origin.bot_blockedx", count: 1_600))
        let prefix = Array(long.prefix(KeySuggestion.maximumCompared))
        let code = Array("origin.bot_blocked")
        #expect(KeySuggestion.maximumCompared == 256)
        #expect(KeySuggestion.editDistance(long, code) == KeySuggestion.editDistance(prefix, code))
        // Anything after the first 256 characters changes nothing.
        let other = prefix + Array(String(repeating: "z", count: 29_000))
        #expect(KeySuggestion.editDistance(other, code) == KeySuggestion.editDistance(long, code))
    }
}
