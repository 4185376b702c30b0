import Foundation
import MonitorCheck
import MonitorCore
import MonitorDaemon
import MonitorEvaluation

extension CheckCommand {
    /// `check --wait`: checks, and while only Apple's CDN lags (exit 3), checks the lagging domains again when
    /// their copy may change, until every domain is ready, something waiting cannot fix appears, or time is up.
    /// Prints the last check of every domain, as `check` without `--wait` would, and exits with its code. When it
    /// ends with a domain still waiting (3), a last line on standard error says why waiting ended, or that it never
    /// began (a `--wait` shorter than a step).
    func runWaiting(
        _ targets: [CheckRunner.Target],
        probe: ProbeSettings,
        evaluation: EvaluationSettings,
        for limit: Duration,
        step: Duration
    ) async throws {
        let deadline = Date().addingTimeInterval(limit.seconds)
        let progress = WaitProgress()
        var reports = try await check(targets, probe: probe, evaluation: evaluation)
        var rechecks = 0
        var now = Date()
        while case .recheck(let next) = ReleaseWait.decide(reports, now: now, deadline: deadline, step: step.seconds) {
            progress.show(ReleaseWait.progress(reports, now: now, deadline: deadline, next: next))
            let pause = next.timeIntervalSinceNow
            if pause > 0 { try await Task.sleep(for: .milliseconds(Int64(pause * 1000))) }
            let waiting = Set(ReleaseWait.waiting(reports).map(\.domain))
            let again = try await check(
                targets.filter { waiting.contains($0.domain) }, probe: probe, evaluation: evaluation)
            let byDomain = Dictionary(again.map { ($0.domain, $0) }, uniquingKeysWith: { first, _ in first })
            reports = reports.map { byDomain[$0.domain] ?? $0 }
            rechecks += 1
            now = Date()
        }
        progress.finish(
            saying: ReleaseWait.closing(
                reports, now: now, deadline: deadline, step: step.seconds, rechecks: rechecks))
        let verdicts = reports.map(\.verdict)
        let summary = CheckSummary(verdicts: verdicts, version: MonitorVersion.current, checkedAt: Date())
        if json {
            var output = MonitorJSON.inert(
                try MonitorJSON.encoder().encode(CheckOutput(domains: reports, summary: summary)))
            output.append(UInt8(ascii: "\n"))
            try StandardOutput.write(output)
        } else {
            let text = reports.map { TerminalText.safe(ReportText.render($0)) }.joined(separator: "\n")
            try StandardOutput.write(Data((text + "\n" + summary.line + "\n").utf8))
        }
        let code = Verdict.exitCode(for: verdicts)
        if code != 0 { throw CommandFailure(message: "", exitCode: code) }
    }

    /// Every report of `targets`, with `check`'s progress shown on a terminal while they are checked.
    private func check(
        _ targets: [CheckRunner.Target], probe: ProbeSettings, evaluation: EvaluationSettings
    ) async throws -> [DomainReport] {
        let progress = CheckProgressDisplay(total: Set(targets.map(\.domain)).count)
        var reports: [DomainReport] = []
        try await progress.showing {
            try await CheckRunner.stream(
                targets, probe: probe, evaluation: evaluation,
                compact: { report in
                    progress.domainChecked()
                    return report
                },
                emit: { reports.append($0) })
        }
        return reports
    }
}

/// The `--wait` progress on standard error: one line rewritten in place on a terminal, plain lines otherwise
/// (a CI log keeps every line).
struct WaitProgress {
    let terminal = isatty(STDERR_FILENO) == 1

    func show(_ line: String) {
        let safe = TerminalText.safe(line)
        FileHandle.standardError.write(Data((terminal ? "\r\u{1B}[K" + safe : safe + "\n").utf8))
    }

    /// Clears the progress line and leaves `closing`, if any, as a line of its own.
    func finish(saying closing: String?) {
        if terminal { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        if let closing { FileHandle.standardError.write(Data((TerminalText.safe(closing) + "\n").utf8)) }
    }
}
