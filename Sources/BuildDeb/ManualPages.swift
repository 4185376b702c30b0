import Foundation

/// Man pages: `aasa-monitor(1)` and one per subcommand (`aasa-monitor.check(1)`, …), written by
/// swift-argument-parser's own `generate-manual` tool from the commands' definitions, plus the configuration's
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
        for page in generated {
            try tree.copyGzipped(pages.appendingPathComponent(page), to: "/usr/share/man/man1/\(page).gz")
        }
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
