import Foundation
import PackagePlugin

/// The release binary the package ships: Swift runtime linked statically, stripped, and checked to need no toolchain.
enum ReleaseBuild {
    /// Swift's own runtime libraries; none may be linked dynamically, the target machine has no toolchain.
    static let toolchainLibraries = ["libswift", "libFoundation", "lib_Foundation", "libdispatch", "libBlocksRuntime"]

    /// Builds `aasa-monitor` in release mode through the SwiftPM running this plugin, in the package's own
    /// `.build/release`, and returns the built binary.
    ///
    /// Package.swift links every release build of `aasa-monitor` the way the package needs it (`releaseLinkerFlags`:
    /// static Swift runtime, full RELRO, lld with packed relative relocations, no exported symbols), so this is the
    /// build the README's from-source `swift run -c release` made: after that, nothing is compiled again.
    static func build(_ packageManager: PackageManager) throws -> URL {
        Shell.say("building the release binary in .build/release (nothing to do after `swift run -c release`)")
        var parameters = PackageManager.BuildParameters(configuration: .release, logging: .concise)
        parameters.echoLogs = true
        let result = try packageManager.build(.product("aasa-monitor"), parameters: parameters)
        guard result.succeeded else {
            throw BuildDebError("the release build of aasa-monitor failed:\n\(result.logText)")
        }
        guard
            let binary = result.builtArtifacts.first(where: {
                $0.kind == .executable && $0.url.lastPathComponent == "aasa-monitor"
            })
        else {
            throw BuildDebError("the release build reported no aasa-monitor executable")
        }
        return binary.url
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
