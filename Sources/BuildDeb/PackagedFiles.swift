/// The repository's files as the package installs them: the same sources, adjusted for the packaged paths.
///
/// Pure text transformations, so that `systemd/aasa-monitor.service` and `config/aasa-monitor.yml` stay the one
/// source of truth; each throws when the text it relies on has moved, instead of shipping a file that is wrong.
enum PackagedFiles {
    /// The unit with the packaged binary's path and man page; the by-hand install notes above `[Unit]` replaced.
    static func unit(_ source: String) throws -> String {
        guard let start = source.range(of: "[Unit]\n") else {
            throw BuildDebError("systemd/aasa-monitor.service has no [Unit] section; the package needs one")
        }
        var body = String(source[start.lowerBound...])
        let by = "ExecStart=/usr/local/bin/aasa-monitor "
        guard body.components(separatedBy: by).count == 2 else {
            throw BuildDebError(
                "systemd/aasa-monitor.service must have one line starting `\(by)`; build-deb rewrites it to /usr/bin")
        }
        body = body.replacingOccurrences(of: by, with: "ExecStart=/usr/bin/aasa-monitor ")
        body = body.replacingOccurrences(of: "Documentation=", with: "Documentation=man:aasa-monitor.run(1) ")
        let header = """
            # aasa-monitor: watches Apple universal-link association (AASA) files and Apple's CDN copies of them.
            #
            # Installed by the aasa-monitor package. Its user and group come from /usr/lib/sysusers.d/aasa-monitor.conf;
            # join the group to read the state with `aasa-monitor status`. The service is not enabled on install:
            # edit /etc/aasa-monitor/config.yml, check it with `aasa-monitor config check`, then
            # `systemctl enable --now aasa-monitor`. Reload the configuration with `systemctl reload aasa-monitor`.
            # Local changes belong in `systemctl edit aasa-monitor`, not in this file.


            """
        return header + body
    }

    /// The documented example configuration, watching nothing: its `domains:` block is commented out line by line.
    ///
    /// A first install must not probe `example.com`; removing the first `# ` of each line below `domains: []`
    /// gives back the example exactly.
    static func configuration(_ example: String) throws -> String {
        var lines = example.components(separatedBy: "\n")
        guard let index = lines.firstIndex(of: "domains:") else {
            throw BuildDebError(
                "config/aasa-monitor.yml has no top-level `domains:` line; build-deb comments that block out so the"
                    + " packaged configuration watches nothing")
        }
        let commented = lines[index...].map { $0.isEmpty ? $0 : "# " + $0 }
        lines.replaceSubrange(index..., with: commented)
        lines.insert(
            contentsOf: [
                "# Nothing is watched until you list domains here. To watch the example below instead, remove the first",
                "# \"# \" of each of its lines and this `domains: []`; then `systemctl enable --now aasa-monitor`.",
                "domains: []",
            ], at: index)
        return lines.joined(separator: "\n")
    }
}
