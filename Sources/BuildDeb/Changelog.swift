import Foundation

/// `/usr/share/doc/aasa-monitor/changelog.gz`: Debian's record of the package version, here saying which commit
/// the package was built from, so a bug report against an installed package names the exact source.
enum Changelog {
    static func text(version: String, package: URL) -> String {
        let commit =
            (try? Shell.run("git", ["-C", package.path, "rev-parse", "HEAD"]))?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? "an unknown commit (no git)"
        let date = (try? Shell.run("date", ["-R", "-u"] + sourceDate))?.trimmingCharacters(in: .whitespacesAndNewlines)
        return """
            aasa-monitor (\(version)) stable; urgency=medium

              * Built by build-deb from commit \(commit).

             -- \(ControlFile.maintainer)  \(date ?? "Thu, 01 Jan 1970 00:00:00 +0000")

            """
    }

    /// `-d @SOURCE_DATE_EPOCH` when set, so a reproducible build gets the same changelog.
    private static var sourceDate: [String] {
        ProcessInfo.processInfo.environment["SOURCE_DATE_EPOCH"].map { ["-d", "@\($0)"] } ?? []
    }
}
