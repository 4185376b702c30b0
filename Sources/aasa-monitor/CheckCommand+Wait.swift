import Foundation
import Monitor

extension CheckCommand {
    /// `check --wait`: checks, and while only Apple's CDN lags (exit 3), checks the lagging domains again when
    /// their copy may change, until every domain is ready, something waiting cannot fix appears, or time is up.
    /// Prints the last check of every domain, as `check` without `--wait` would, and exits with its code.
    func runWaiting(
        _ targets: [CheckRunner.Target],
        probe: ProbeSettings,
        evaluation: EvaluationSettings,
        for limit: Duration,
        step: Duration
    ) async throws {
        let deadline = Date().addingTimeInterval(limit.seconds)
        let progress = WaitProgress()
        var reports = try await CheckRunner.run(targets, probe: probe, evaluation: evaluation)
        while case .recheck(let next) = ReleaseWait.decide(reports, now: Date(), deadline: deadline, step: step.seconds)
        {
            progress.show(ReleaseWait.progress(reports, now: Date(), deadline: deadline, next: next))
            let pause = next.timeIntervalSinceNow
            if pause > 0 { try await Task.sleep(for: .milliseconds(Int64(pause * 1000))) }
            let waiting = Set(ReleaseWait.waiting(reports).map(\.domain))
            let again = try await CheckRunner.run(
                targets.filter { waiting.contains($0.domain) }, probe: probe, evaluation: evaluation)
            let byDomain = Dictionary(again.map { ($0.domain, $0) }, uniquingKeysWith: { first, _ in first })
            reports = reports.map { byDomain[$0.domain] ?? $0 }
        }
        progress.finish()
        let verdicts = reports.map(\.verdict)
        if json {
            let summary = CheckSummary(verdicts: verdicts, version: MonitorVersion.current, checkedAt: Date())
            var output = MonitorJSON.inert(
                try MonitorJSON.encoder().encode(CheckOutput(domains: reports, summary: summary)))
            output.append(UInt8(ascii: "\n"))
            try StandardOutput.write(output)
        } else {
            let text = reports.map { TerminalText.safe(ReportText.render($0)) }.joined(separator: "\n")
            try StandardOutput.write(Data(text.utf8))
        }
        let code = Verdict.exitCode(for: verdicts)
        if code != 0 { throw CommandFailure(message: "", exitCode: code) }
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

    func finish() {
        if terminal { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }
}
