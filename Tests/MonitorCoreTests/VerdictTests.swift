import MonitorCore
import MonitorEvaluation
import Testing

@Suite("Verdicts and exit codes")
struct VerdictTests {
    @Test(
        "check's exit code is the most severe over all domains: 1, then 4, then 3, then 0",
        arguments: [
            ([Verdict.ready, .ready], 0),
            ([.ready, .cdnStale], 3),
            ([.unknown, .expectationFailed], 4),
            ([.cdnMissing, .originBroken, .expectationFailed], 1),
            ([], 0),
        ])
    func exitCodes(verdicts: [Verdict], expected: Int) {
        #expect(Verdict.exitCode(for: verdicts) == Int32(expected))
    }
}
