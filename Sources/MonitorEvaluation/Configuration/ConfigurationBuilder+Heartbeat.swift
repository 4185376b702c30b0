import Foundation
import Yams

/// The `heartbeat` section: a URL pinged while the daemon is healthy (`HeartbeatConfiguration`), read with the
/// webhooks' rules for URLs and secrets.
extension ConfigurationBuilder {
    static let heartbeatKeys = [
        "url", "url_file", "url_env", "every", "method", "fail_pings", "timeout", "ca_file", "allow_private",
    ]

    mutating func heartbeat(_ node: Node, path: ConfigurationPath) -> HeartbeatConfiguration? {
        guard !ConfigurationReader.isNull(node),
            let fields = reader.fields(of: node, path: path, allowed: Self.heartbeatKeys)
        else { return nil }
        var allowPrivate = false
        if let value = fields["allow_private"] {
            allowPrivate = reader.boolean(value, path: path.key("allow_private")) ?? false
        }
        // The URL is the credential: messages say what is wrong without showing it.
        guard let found = credentialURL(fields, node: node, path: path, allowPrivate: allowPrivate) else { return nil }
        warnAboutURL(
            found, path: path, plainHTTP: "a plain http:// heartbeat can be read and replayed on the way; use https://",
            inline:
                "a heartbeat URL is a credential (anyone who has it can report this daemon healthy): move it out of "
                + "this file with url_file or url_env")
        let url = found.url
        var settings = HeartbeatConfiguration(url: url)
        settings.allowPrivate = allowPrivate
        if let value = fields["every"] {
            settings.every = reader.duration(value, path: path.key("every")) ?? settings.every
        }
        if let value = fields["method"] {
            settings.method =
                reader.choice(value, path: path.key("method"), as: HeartbeatConfiguration.Method.self)
                ?? settings.method
        }
        if let value = fields["fail_pings"] {
            settings.failPings = reader.boolean(value, path: path.key("fail_pings")) ?? settings.failPings
        }
        if let value = fields["timeout"] {
            settings.timeout = reader.duration(value, path: path.key("timeout")) ?? settings.timeout
        }
        if let value = fields["ca_file"] { settings.caFile = caFile(value, path: path.key("ca_file")) }
        return settings
    }
}
