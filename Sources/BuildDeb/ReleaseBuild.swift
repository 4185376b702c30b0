import Foundation

/// The release binary the package ships: Swift runtime linked statically, stripped, and checked to need no toolchain.
enum ReleaseBuild {
    /// Swift's own runtime libraries; none may be linked dynamically, the target machine has no toolchain.
    static let toolchainLibraries = ["libswift", "libFoundation", "lib_Foundation", "libdispatch", "libBlocksRuntime"]

    /// Builds `aasa-monitor` in release mode under `nice -n 19` (a release build takes minutes of every core) and
    /// returns the built binary.
    static func build(swift: String, package: URL, scratch: URL) throws -> URL {
        let arguments = [
            "build", "-c", "release", "--static-swift-stdlib", "--product", "aasa-monitor", "--scratch-path",
            scratch.path,
            // Full RELRO: relocations resolved at start-up, then read-only, as Debian's hardening flags do.
            "-Xlinker", "-z", "-Xlinker", "relro", "-Xlinker", "-z", "-Xlinker", "now",
            // The toolchain's lld, for packed relative relocations (DT_RELR, read by glibc ≥ 2.36): gold writes
            // ~130,000 of them as a 3 MB table that start-up reads and every running daemon keeps resident
            // (measured: 2.8 MB less RSS, idle and at 1,000 domains).
            "-Xswiftc", "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
            // SwiftPM exports every symbol of an executable (43,000: a 4 MB symbol table that start-up searches) so
            // that backtraces can name functions; the packaged binary prints none (the Swift runtime cannot find
            // the toolchain's swift-backtrace on the user's machine). 2.8 MB less RSS.
            "-Xlinker", "--no-export-dynamic",
        ]
        Shell.say("building the release binary in \(scratch.path) (several minutes the first time)")
        try Shell.run("nice", ["-n", "19", swift] + arguments, in: package, capture: false)
        let directory = try Shell.run(swift, arguments + ["--show-bin-path"], in: package)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return URL(fileURLWithPath: directory).appendingPathComponent("aasa-monitor")
    }

    /// Strips symbols (the 89 MB unstripped binary is mostly symbol tables), then refuses a binary that would
    /// look for Swift's runtime or the toolchain at run time.
    static func strip(_ binary: URL) throws {
        try Shell.run("strip", ["--strip-all", "--remove-section=.comment", binary.path])
        let sections = try Shell.run("readelf", ["--section-headers", "--wide", binary.path])
        guard sections.contains(".relr.dyn") else {
            throw BuildDebError(
                "\(binary.path) has no packed relative relocations (.relr.dyn): link it with the toolchain's lld and"
                    + " -z pack-relative-relocs, or every daemon keeps a 3 MB relocation table resident")
        }
        let dynamic = try Shell.run("readelf", ["--dynamic", binary.path])
        for line in dynamic.split(separator: "\n") {
            if line.contains("(NEEDED)"), let name = toolchainLibraries.first(where: { line.contains("[\($0)") }) {
                throw BuildDebError(
                    "\(binary.path) links \(name)… dynamically (\(line.trimmingCharacters(in: .whitespaces)));"
                        + " the package must link Swift's runtime statically (--static-swift-stdlib)")
            }
            if line.contains("(RUNPATH)") || line.contains("(RPATH)"), line.contains("/") {
                throw BuildDebError(
                    "\(binary.path) has a library search path into the build machine:"
                        + " \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
    }

    /// The binary's own `--version`, which must also be a valid Debian version.
    static func version(of binary: URL) throws -> String {
        let version = try Shell.run(binary.path, ["--version"]).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let first = version.first, first.isNumber,
            version.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || ".+~-".contains($0)) })
        else {
            throw BuildDebError("`aasa-monitor --version` printed '\(version)', which is not a Debian version")
        }
        return version
    }
}
