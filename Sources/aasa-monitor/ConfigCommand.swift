import ArgumentParser

/// `aasa-monitor config …`: commands about the configuration file.
struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Work with the configuration file.",
        subcommands: [ConfigCheckCommand.self]
    )
}
