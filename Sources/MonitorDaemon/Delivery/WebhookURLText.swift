import Foundation

/// How a webhook URL may appear in text: the URL of a chat webhook is its credential (a Slack token is its path,
/// some receivers take it in the query), so only its scheme and host are ever shown, and text that came back
/// from libcurl or the receiver has every part of the URL that could carry the token cut out.
package enum WebhookURLText {
    /// `https://hooks.slack.com/…`: scheme and host (and a port other than the default), never path, query or
    /// user information.
    package static func shown(_ url: String) -> String {
        guard let components = URLComponents(string: url), let scheme = components.scheme,
            let host = components.host, !host.isEmpty
        else { return "(webhook URL not shown)" }
        let port = components.port.map { ":\($0)" } ?? ""
        let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return "\(scheme)://\(bracketed)\(port)/…"
    }

    /// `text` with the URL shown as `shown(url)`, and its path, query, user information and every long path segment or query value
    /// (where tokens live) replaced by `…`, so an error message or an answer body that echoes the URL cannot
    /// carry the token into a log line or the database.
    package static func scrub(_ text: String, url: String) -> String {
        var secrets: [String] = []
        if let components = URLComponents(string: url) {
            let path = components.percentEncodedPath
            if path.count > 1 { secrets += [path, components.path] }
            secrets += [components.percentEncodedQuery, components.query, components.user, components.password]
                .compactMap(\.self)
            secrets += path.split(separator: "/").map(String.init)
            secrets += path.split(separator: "/").compactMap { String($0).removingPercentEncoding }
            secrets += (components.queryItems ?? []).compactMap(\.value)
        }
        var result = text.replacingOccurrences(of: url, with: shown(url))
        // Longest first, so a segment is not cut out of a longer secret that would then be left half-shown.
        for secret in Set(secrets).filter({ $0.count >= minimumSecretLength }).sorted(by: { $0.count > $1.count }) {
            result = result.replacingOccurrences(of: secret, with: "…")
        }
        return result
    }

    /// Shorter pieces (`v1`, `api`, `hooks`) are words, not tokens; cutting them would garble messages.
    static let minimumSecretLength = 6
}
