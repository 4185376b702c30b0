import ArgumentParser
import Foundation
import Logging
import MonitorDaemon

/// `aasa-monitor run`: the daemon. systemd starts it; a person can too, in a terminal.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Check every configured domain on a schedule, remember what was seen, serve metrics and status.",
        discussion: """
            SIGHUP reloads the configuration (an invalid file is reported and the old one kept); SIGTERM or SIGINT \
            stop gracefully. Exit codes: 0 stopped cleanly; 1 fatal runtime error; 2 at start, an invalid \
            configuration, an unusable state directory, a state database this user cannot write (the message \
            names the file, its owner and the fix), an address it cannot listen on, or an \
            endpoint.basic_auth_file whose hashes this system's libcrypt cannot check.
            """
    )

    @OptionGroup var location: ConfigurationOptions

    @Option(
        name: .customLong("state-dir"), help: "Where the SQLite file lives (overrides the configuration's state_dir).",
        completion: .directory)
    var stateDirectory: String?

    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel: String = "info"

    func run() async throws {
        guard let level = Logger.Level(rawValue: logLevel) else {
            throw CommandFailure.usage(
                "--log-level \(logLevel): expected trace, debug, info, notice, warning, error or critical")
        }
        let environment = ProcessInfo.processInfo.environment
        JournalLogHandler.bootstrap(level: level, environment: environment)
        let options = Daemon.Options(
            configPath: location.resolvedPath(environment: environment), stateDirectoryOverride: stateDirectory,
            environment: environment, logLevel: level)
        let code = await Daemon.run(options, logger: Logger(label: "aasa-monitor"))
        if code != 0 { throw CommandFailure(message: "", exitCode: code) }
    }
}
