import Foundation
import MonitorCore
import MonitorEvaluation
import Testing

/// What a run keeps of the report that started it.
@Suite("Run reports")
struct RunReportTests {
    @Test("a run keeps its report's times and durations to the millisecond, and no documents")
    func milliseconds() {
        var report = TimelineReports.report(at: 0, origin: "sha256:a", cdn: .answered("sha256:a"))
        report.checkedAt = TimelineReports.at(0).addingTimeInterval(0.123_456_7)
        report.durationSeconds = 0.002_823_293_209_075_927_7
        report.origin.wellKnown.totalSeconds = 1.234_567_8
        report.cdn?.totalSeconds = 0.000_4
        report.documents = ["sha256:a": "{}"]
        var counter = 0
        let outcome = DomainLedger.apply(
            DomainSnapshot(), report: report, policy: .quiet,
            makeID: {
                counter += 1
                return "id-\(counter)"
            })
        guard case .start(let run) = outcome.run else {
            Issue.record("a first check starts a run")
            return
        }
        #expect(run.report.durationSeconds == 0.003)
        #expect(run.report.origin.wellKnown.totalSeconds == 1.235)
        #expect(run.report.cdn?.totalSeconds == 0)
        #expect(
            run.report.checkedAt.timeIntervalSince1970 == TimelineReports.at(0).timeIntervalSince1970 + 0.123)
        #expect(run.report.documents.isEmpty)
        // The run's own times are the check's, exactly.
        #expect(run.firstSeen == report.checkedAt)
    }
}
