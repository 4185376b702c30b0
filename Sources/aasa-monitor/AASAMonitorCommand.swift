import ArgumentParser

/// The root of the command tree: it only parses arguments and formats output; the work lives in the libraries.
@main
struct AASAMonitorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "aasa-monitor",
        abstract: "Watch apple-app-site-association files on your origins and on Apple's CDN.",
        version: AASAMonitorVersion.current,
        subcommands: []
    )
}
