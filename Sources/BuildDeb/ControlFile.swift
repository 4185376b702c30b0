import Foundation

/// `DEBIAN/control` of the package, with `Depends:` read off the binary rather than typed.
struct ControlFile {
    var version: String
    var architecture: String
    /// What the binary links, from dpkg-shlibdeps (`libc6 (>= 2.34), libcurl4 (>= 7.x), …`).
    var libraryDepends: [String]
    /// Kilobytes the installed files take (`du -sk`).
    var installedSize: Int

    /// What the maintainer scripts call: systemd-sysusers and systemd-tmpfiles (from systemd, or the standalone
    /// packages on machines without it). Not linked, so dpkg-shlibdeps cannot see them. deb-systemd-helper and
    /// deb-systemd-invoke come from init-system-helpers, which is Essential in Debian 12 and needs no entry.
    static let scriptDepends = ["systemd | systemd-standalone-sysusers", "systemd | systemd-standalone-tmpfiles"]

    /// `DEBFULLNAME <DEBEMAIL>` when set (Debian's convention), else a placeholder to replace before publishing.
    static var maintainer: String {
        let environment = ProcessInfo.processInfo.environment
        guard let email = environment["DEBEMAIL"] else { return "aasa-monitor maintainers <aasa-monitor@localhost>" }
        return "\(environment["DEBFULLNAME"] ?? "aasa-monitor maintainers") <\(email)>"
    }

    /// The control file; `Recommends: bash-completion` because the packaged completions (argument-parser's, for
    /// files, finding codes, webhook names and configured domains) do nothing in bash without it; `Suggests:
    /// postgresql` for several daemons on one database (`store: postgres:`), which may run on another host.
    var text: String {
        return """
            Package: aasa-monitor
            Version: \(version)
            Architecture: \(architecture)
            Maintainer: \(Self.maintainer)
            Installed-Size: \(installedSize)
            Depends: \((libraryDepends + Self.scriptDepends).joined(separator: ", "))
            Recommends: bash-completion
            Suggests: postgresql
            Section: net
            Priority: optional
            Description: watches Apple universal-link association (AASA) files
             aasa-monitor fetches each domain's apple-app-site-association file from the
             origin and from Apple's CDN, which is what devices read, and says when they
             break, differ or lag: `aasa-monitor check` gates a release in CI with its
             exit code, and the aasa-monitor service keeps a history, serves metrics and
             sends webhook alerts. lint, match and diff work on files.

            """
    }

    /// The `Depends:` entries for `binary`, from `dpkg-shlibdeps` (dpkg-dev), which maps each linked library to
    /// the package that ships it and the lowest version whose symbols the binary uses.
    ///
    /// dpkg-shlibdeps runs inside a source package: `source` gets a `debian/control` of its own, and the binary
    /// must be in `source/debian/aasa-monitor/`, the package's tree, as dpkg-shlibdeps expects.
    static func libraryDepends(of binary: URL, source: URL) throws -> [String] {
        try "Source: aasa-monitor\n\nPackage: aasa-monitor\nArchitecture: any\n".write(
            to: source.appendingPathComponent("debian/control"), atomically: true, encoding: .utf8)
        let output: String
        do {
            output = try Shell.run("dpkg-shlibdeps", ["-O", "-e" + binary.path], in: source)
        } catch {
            throw BuildDebError("\(error)\nDepends: comes from dpkg-shlibdeps: `apt-get install dpkg-dev`.")
        }
        let prefix = "shlibs:Depends="
        guard let line = output.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }) else {
            throw BuildDebError("dpkg-shlibdeps printed no \(prefix) line for \(binary.path):\n\(output)")
        }
        let depends = line.dropFirst(prefix.count).split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        guard depends.contains(where: { $0 == "libcurl4" || $0.hasPrefix("libcurl4 ") }) else {
            throw BuildDebError(
                "dpkg-shlibdeps found no libcurl4 in what \(binary.path) links (\(depends.joined(separator: ", ")));"
                    + " build against libcurl4-openssl-dev")
        }
        let versions = try Shell.run("readelf", ["--version-info", "--wide", binary.path])
        return versions.contains("GLIBC_ABI_DT_RELR") ? withGlibcForPackedRelocations(depends) : depends
    }

    /// The glibc whose loader reads packed relative relocations (`-z pack-relative-relocs`, DT_RELR).
    static let packedRelocationsGlibc = [2, 36]

    /// `depends` with `libc6` at least 2.36: a binary with packed relative relocations asks the loader for
    /// `GLIBC_ABI_DT_RELR`, which dpkg-shlibdeps does not map to a version (it said `libc6 (>= 2.35)`), and an older
    /// glibc refuses to start it.
    static func withGlibcForPackedRelocations(_ depends: [String]) -> [String] {
        let floor = packedRelocationsGlibc.map(String.init).joined(separator: ".")
        var sawLibc = false
        var result = depends.map { entry -> String in
            guard entry == "libc6" || entry.hasPrefix("libc6 ") else { return entry }
            sawLibc = true
            let version = entry.split(separator: "=").last.map {
                $0.trimmingCharacters(in: CharacterSet(charactersIn: " )"))
            }
            let parts = version?.split(separator: ".").map { Int($0.prefix { $0.isNumber }) ?? 0 } ?? []
            return parts.lexicographicallyPrecedes(packedRelocationsGlibc) ? "libc6 (>= \(floor))" : entry
        }
        if !sawLibc { result.insert("libc6 (>= \(floor))", at: 0) }
        return result
    }
}
