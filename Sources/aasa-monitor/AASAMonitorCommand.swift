import ArgumentParser
import Foundation
import HTTPEngine
import MonitorCore
import MonitorDaemon
import MonitorEvaluation

#if canImport(Glibc)
    import Glibc
#endif

/// The root of the command tree: it only parses arguments and formats output; the work lives in the libraries.
@main
struct AASAMonitorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "aasa-monitor",
        abstract: "Watch apple-app-site-association files on your origins and on Apple's CDN.",
        discussion: """
            Shell completions: the Debian package installs them for bash, zsh and fish. From a source build, print \
            the script with `aasa-monitor --generate-completion-script bash` (or zsh, fish) and save it where the \
            shell looks, e.g. `aasa-monitor --generate-completion-script bash > \
            ~/.local/share/bash-completion/completions/aasa-monitor`, `… zsh > ~/.zfunc/_aasa-monitor` (with \
            ~/.zfunc in fpath) or `… fish > ~/.config/fish/completions/aasa-monitor.fish`.
            """,
        version: MonitorVersion.current,
        subcommands: [
            RunCommand.self, StatusCommand.self, HistoryCommand.self, CheckCommand.self, ConfigCommand.self,
            WebhookCommand.self, LintCommand.self, DiffCommand.self, MatchCommand.self, ExplainCommand.self,
            AppCommand.self, SilenceCommand.self, OutboxCommand.self,
        ]
    )

    /// Runs the command and maps every failure to the documented exit codes (each command's `discussion`).
    ///
    /// argument-parser exits 64 on usage errors; our public interface promises 2 for usage errors in every
    /// command, so scripts can tell "you called me wrong" from "the check failed".
    static func main() async {
        do {
            // Local time with its offset for a person at a terminal (honouring TZ); UTC when piped, so scripts
            // read one form. JSON, webhooks and logs are UTC whatever this says (`TimeText`).
            let times = isatty(STDOUT_FILENO) == 1 ? TimeText(zone: TimeZone.current) : TimeText.utc
            try await TimeText.$current.withValue(times) {
                var command = try parseAsRoot()
                if var asyncCommand = command as? any AsyncParsableCommand {
                    try await asyncCommand.run()
                } else {
                    try command.run()
                }
            }
        } catch let failure as CommandFailure {
            if !failure.message.isEmpty { printToStandardError(failure.message) }
            Glibc.exit(failure.exitCode)
        } catch {
            let code = exitCode(for: error)
            let message = fullMessage(for: error)
            if code == .success {
                // Help, version and completion scripts: the program's own text, printed whole (a completion script or
                // `--experimental-dump-help`'s JSON must not be cut or escaped like outside text).
                if !message.isEmpty { print(message) }
                Glibc.exit(0)
            }
            if !message.isEmpty { printToStandardError(message) }
            Glibc.exit(code == .validationFailure ? CommandFailure.usageExitCode : code.rawValue)
        }
    }
}

/// A command's own failure with the exit code it promises (e.g. 2 for an unreadable file, 1 for error findings).
struct CommandFailure: Error {
    static let usageExitCode: Int32 = 2

    var message: String
    var exitCode: Int32

    /// A usage problem (unreadable file, bad argument value): exit 2 with a message naming the problem.
    static func usage(_ message: String) -> CommandFailure {
        CommandFailure(message: "error: \(message)", exitCode: usageExitCode)
    }

    /// The command ran and its answer is "no" (exit 1), with nothing more to print.
    static let negative = CommandFailure(message: "", exitCode: 1)
}

/// Writes one line to standard error, where logs and diagnostics go (standard output is for results).
func printToStandardError(_ line: String) {
    var standardError = StandardErrorStream()
    print(TerminalText.safe(line), to: &standardError)
}

/// A `TextOutputStream` over file descriptor 2.
struct StandardErrorStream: TextOutputStream {
    mutating func write(_ string: String) {
        var bytes = Array(string.utf8)
        bytes.withUnsafeMutableBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(2, buffer.baseAddress! + offset, buffer.count - offset)
                if written <= 0 { break }
                offset += written
            }
        }
    }
}
