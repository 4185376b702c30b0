import Foundation

/// Man pages: one per subcommand (`aasa-monitor.check(1)`, …), written by swift-argument-parser's own
/// `generate-manual` tool from the commands' definitions with each EXIT STATUS made from the command's own exit
/// codes; the main page `aasa-monitor(1)`, written by hand (`Sources/BuildDeb/man/aasa-monitor.1`: an overview, the
/// commands, files and exit codes, which the generated root page lacks); and the configuration's
/// `aasa-monitor.yml(5)` when `config/aasa-monitor.yml.5` exists. Installed gzipped under `/usr/share/man`.
enum ManualPages {
    static func install(
        binary: URL, package: URL, argumentParser: URL, swift: String, scratch: URL, into tree: PackageTree
    ) throws {
        let tool = try buildGenerator(swift: swift, argumentParser: argumentParser, scratch: scratch)
        let pages = scratch.appendingPathComponent("man")
        try? FileManager.default.removeItem(at: pages)
        try FileManager.default.createDirectory(at: pages, withIntermediateDirectories: true)
        try Shell.run(
            tool.path,
            [
                binary.path, "--multi-page", "--section", "1", "--date", try date(package), "--output-directory",
                pages.path,
            ])
        let generated = try FileManager.default.contentsOfDirectory(atPath: pages.path).filter { $0.hasSuffix(".1") }
        guard generated.contains("aasa-monitor.1") else {
            throw BuildDebError("generate-manual wrote no aasa-monitor.1 in \(pages.path) (it wrote: \(generated))")
        }
        let commands = try commands(dumpHelp: Data(Shell.run(binary.path, ["--experimental-dump-help"]).utf8))
        for page in generated where page != "aasa-monitor.1" {
            let name = String(page.dropLast(2))
            guard let command = commands[name] else {
                throw BuildDebError("generate-manual wrote \(page), which is no command of the binary")
            }
            let url = pages.appendingPathComponent(page)
            let body = try exitStatusBody(command.codes, isGroup: command.isGroup, page: name)
            let text = try replacingExitStatus(in: String(contentsOf: url, encoding: .utf8), with: body)
            try text.write(to: url, atomically: true, encoding: .utf8)
            try tree.copyGzipped(url, to: "/usr/share/man/man1/\(page).gz")
        }
        let main = pages.appendingPathComponent("aasa-monitor.1")
        try mainPage(package: package, date: try date(package)).write(to: main, atomically: true, encoding: .utf8)
        try tree.copyGzipped(main, to: "/usr/share/man/man1/aasa-monitor.1.gz")
        let configurationPage = package.appendingPathComponent("config/aasa-monitor.yml.5")
        if FileManager.default.fileExists(atPath: configurationPage.path) {
            try tree.copyGzipped(configurationPage, to: "/usr/share/man/man5/aasa-monitor.yml.5.gz")
        } else {
            Shell.say("no config/aasa-monitor.yml.5 in the repository yet: the package has no aasa-monitor.yml(5)")
        }
    }

    /// `generate-manual` is an executable target of swift-argument-parser, not a product our package can depend
    /// on, so it is built from the checkout SwiftPM already has (debug: it only formats text).
    private static func buildGenerator(swift: String, argumentParser: URL, scratch: URL) throws -> URL {
        let arguments = [
            "build", "--package-path", argumentParser.path, "--scratch-path",
            scratch.appendingPathComponent("generate-manual").path, "--product", "generate-manual",
        ]
        Shell.say("building swift-argument-parser's generate-manual")
        try Shell.run("nice", ["-n", "19", swift] + arguments, capture: false)
        let directory = try Shell.run(swift, arguments + ["--show-bin-path"])
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return URL(fileURLWithPath: directory).appendingPathComponent("generate-manual")
    }

    /// The hand-written main page with `day` (`2026-11-26`) on its `.Dd` line, as mdoc spells dates.
    private static func mainPage(package: URL, date day: String) throws -> String {
        let source = package.appendingPathComponent("Sources/BuildDeb/man/aasa-monitor.1")
        let text = try String(contentsOf: source, encoding: .utf8)
        let parser = DateFormatter()
        parser.locale = Locale(identifier: "en_US_POSIX")
        parser.timeZone = TimeZone(identifier: "UTC")
        parser.dateFormat = "yyyy-MM-dd"
        let writer = DateFormatter()
        writer.locale = parser.locale
        writer.timeZone = parser.timeZone
        writer.dateFormat = "MMMM d, yyyy"
        guard let date = parser.date(from: day), text.contains("\n.Dd ") else {
            throw BuildDebError("\(source.path) has no .Dd line, or the date \(day) is not yyyy-MM-dd")
        }
        return text.components(separatedBy: "\n").map { $0.hasPrefix(".Dd ") ? ".Dd \(writer.string(from: date))" : $0 }
            .joined(separator: "\n")
    }

    /// The pages' date: `SOURCE_DATE_EPOCH` when set (reproducible builds), else the last commit's day, else today.
    private static func date(_ package: URL) throws -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        if let epoch = ProcessInfo.processInfo.environment["SOURCE_DATE_EPOCH"].flatMap(Double.init) {
            return formatter.string(from: Date(timeIntervalSince1970: epoch))
        }
        let day = (try? Shell.run("git", ["-C", package.path, "log", "-1", "--format=%cs"]))?
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return day.flatMap { $0.isEmpty ? nil : $0 } ?? formatter.string(from: Date())
    }
}
