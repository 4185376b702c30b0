import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory build-deb`: the Debian package of aasa-monitor.
///
/// Builds the release binary with the Swift runtime linked statically (so the target machine needs no toolchain)
/// in `.build/release`, where the README's from-source command builds it too (one build serves both), strips a copy
/// and packages it with the unit, the sysusers.d and tmpfiles.d entries, the example configuration as a conffile,
/// man pages and shell completions generated from the argument-parser definitions. The package is assembled in
/// `.build-deb/`. The last line of standard output is the absolute path of the `.deb`; progress goes to standard
/// error.
@main
struct BuildDeb: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        guard arguments.isEmpty else {
            throw BuildDebError(
                "build-deb takes no arguments, got: \(arguments.joined(separator: " ")); run"
                    + " `swift package --allow-writing-to-package-directory build-deb`")
        }
        let package = context.package.directoryURL
        let scratch = package.appendingPathComponent(".build-deb")
        let swift = (try? context.tool(named: "swift").url.path) ?? "swift"

        let built = try ReleaseBuild.build(packageManager)
        let tree = try PackageTree(root: scratch.appendingPathComponent("deb/debian/aasa-monitor"))
        try tree.copy(built, to: "/usr/bin/aasa-monitor", mode: 0o755)
        let binary = tree.url("/usr/bin/aasa-monitor")
        try ReleaseBuild.strip(binary)
        let version = try ReleaseBuild.version(of: binary)

        try installSystemFiles(package: package, into: tree, binary: binary)
        let argumentParser = try Self.argumentParserDirectory(context.package)
        try ManualPages.install(
            binary: binary, package: package, argumentParser: argumentParser, swift: swift, scratch: scratch,
            into: tree)
        try Completions.install(binary: binary, into: tree)
        try tree.copyGzipped(
            package.appendingPathComponent("README.md"), to: "/usr/share/doc/aasa-monitor/README.md.gz")
        let changelog = scratch.appendingPathComponent("changelog")
        try Changelog.text(version: version, package: package).write(to: changelog, atomically: true, encoding: .utf8)
        try tree.copyGzipped(changelog, to: "/usr/share/doc/aasa-monitor/changelog.gz")

        let control = ControlFile(
            version: version,
            architecture: try Shell.run("dpkg", ["--print-architecture"]).trimmingCharacters(
                in: .whitespacesAndNewlines),
            libraryDepends: try ControlFile.libraryDepends(of: binary, source: scratch.appendingPathComponent("deb")),
            installedSize: try tree.installedSize())
        try tree.write(control.text, to: "/DEBIAN/control")
        try tree.write("/etc/aasa-monitor/config.yml\n", to: "/DEBIAN/conffiles")
        let scripts = package.appendingPathComponent("Sources/BuildDeb/debian")
        for script in ["postinst", "prerm", "postrm"] {
            try tree.copy(scripts.appendingPathComponent(script), to: "/DEBIAN/\(script)", mode: 0o755)
        }
        try tree.writeChecksums()

        let deb = scratch.appendingPathComponent("aasa-monitor_\(version)_\(control.architecture).deb")
        try Shell.run(
            "dpkg-deb", ["--root-owner-group", "-Zxz", "--build", tree.root.path, deb.path], capture: false)
        Shell.say("Depends: \((control.libraryDepends + ControlFile.scriptDepends).joined(separator: ", "))")
        print(deb.standardizedFileURL.path)
    }

    /// The unit, the sysusers.d and tmpfiles.d entries and the configuration, from `systemd/` and `config/`.
    private func installSystemFiles(package: URL, into tree: PackageTree, binary: URL) throws {
        func read(_ path: String) throws -> String {
            try String(contentsOf: package.appendingPathComponent(path), encoding: .utf8)
        }
        try tree.write(
            try PackagedFiles.unit(read("systemd/aasa-monitor.service")), to: "/lib/systemd/system/aasa-monitor.service"
        )
        try tree.copy(
            package.appendingPathComponent("systemd/aasa-monitor.sysusers.conf"),
            to: "/usr/lib/sysusers.d/aasa-monitor.conf")
        try tree.copy(
            package.appendingPathComponent("systemd/aasa-monitor.tmpfiles.conf"),
            to: "/usr/lib/tmpfiles.d/aasa-monitor.conf")
        // 0640 from the start: once edited it may hold webhook secrets; tmpfiles.d gives the group read access.
        let configuration = "/etc/aasa-monitor/config.yml"
        try tree.write(try PackagedFiles.configuration(read("config/aasa-monitor.yml")), to: configuration, mode: 0o640)
        let verdict = try Shell.run(binary.path, ["config", "check", "--config", tree.url(configuration).path])
        guard verdict.contains(": valid: 0 domains") else {
            throw BuildDebError(
                "the packaged \(configuration) must be valid and watch nothing until edited, but"
                    + " `aasa-monitor config check` said: \(verdict)")
        }
    }

    /// Where SwiftPM checked out swift-argument-parser, whose `generate-manual` tool writes the man pages.
    private static func argumentParserDirectory(_ package: Package) throws -> URL {
        var queue = package.dependencies.map(\.package)
        while !queue.isEmpty {
            let next = queue.removeFirst()
            if next.id.lowercased() == "swift-argument-parser" { return next.directoryURL }
            queue += next.dependencies.map(\.package)
        }
        throw BuildDebError("swift-argument-parser is not among the package's dependencies; man pages need it")
    }
}
