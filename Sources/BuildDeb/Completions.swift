import Foundation

/// bash, zsh and fish completions, as argument-parser writes them for the packaged binary, where each shell
/// looks for packaged (vendor) completions.
enum Completions {
    static let paths = [
        "bash": "/usr/share/bash-completion/completions/aasa-monitor",
        "zsh": "/usr/share/zsh/vendor-completions/_aasa-monitor",
        "fish": "/usr/share/fish/vendor_completions.d/aasa-monitor.fish",
    ]

    static func install(binary: URL, into tree: PackageTree) throws {
        for (shell, path) in paths.sorted(by: { $0.key < $1.key }) {
            let script = try Shell.run(binary.path, ["--generate-completion-script", shell])
            guard script.contains("aasa-monitor") else {
                throw BuildDebError("`aasa-monitor --generate-completion-script \(shell)` printed no completion script")
            }
            // Completion files are sourced, not run: no `#!` line (Debian's bash-completion policy).
            let sourced = script.hasPrefix("#!") ? String(script.drop(while: { $0 != "\n" }).dropFirst()) : script
            try tree.write(sourced, to: path)
        }
    }
}
