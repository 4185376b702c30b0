import Foundation
import Yams

/// `webhooks[]`: a named receiver whose URL and secret come from the file, a file, or the environment.
extension ConfigurationBuilder {
    static let webhookKeys = [
        "name", "url", "url_file", "url_env", "format", "secret", "secret_file", "secret_env", "events", "domains",
        "timeout", "ca_file", "allow_private", "min_severity",
    ]

    mutating func webhooks(_ node: Node, path: ConfigurationPath, knownDomains: Set<String>) -> [WebhookConfiguration] {
        guard let items = reader.list(node, path: path) else { return [] }
        var webhooks: [WebhookConfiguration] = []
        var firstLine: [String: Int?] = [:]
        for (index, item) in items.enumerated() {
            let itemPath = path.index(index)
            guard let fields = reader.fields(of: item, path: itemPath, allowed: Self.webhookKeys) else { continue }
            var name: String?
            if let value = fields["name"] {
                name = reader.string(value, path: itemPath.key("name"))
                if let name, let first = firstLine[name] {
                    let at = first.map { "\(fileName):\($0)" } ?? fileName
                    reader.report(
                        "the name '\(ConfigurationReader.truncated(name))' is already used by the webhook at \(at)",
                        at: value, path: itemPath.key("name"))
                } else if let name {
                    firstLine[name] = value.mark?.line
                }
            } else {
                reader.report("missing 'name', which logs and `webhook test` use", at: item, path: itemPath)
            }
            var allowPrivate = false
            if let value = fields["allow_private"] {
                allowPrivate = reader.boolean(value, path: itemPath.key("allow_private")) ?? false
            }
            let found = credentialURL(fields, node: item, path: itemPath, allowPrivate: allowPrivate)
            let url = found?.url
            var format = WebhookFormat.standard
            if let value = fields["format"] {
                format = reader.choice(value, path: itemPath.key("format"), as: WebhookFormat.self) ?? format
            }
            if let found {
                warnAboutURL(
                    found, path: itemPath,
                    plainHTTP:
                        "a plain http:// receiver gets every event unencrypted and unauthenticated; use https://",
                    inline: format == .standard
                        ? nil
                        : "a \(format.rawValue) webhook URL is a credential (anyone who has it can post to the channel): "
                            + "move it out of this file with url_file or url_env")
            }
            let secret = webhookSecret(fields, node: item, path: itemPath, format: format)
            var webhook = WebhookConfiguration(name: name ?? "", url: url ?? "", format: format, secret: secret)
            webhook.allowPrivate = allowPrivate
            if let value = fields["events"] { webhook.events = events(value, path: itemPath.key("events")) }
            if let value = fields["domains"] {
                webhook.domains = configuredDomains(value, path: itemPath.key("domains"), knownDomains: knownDomains)
                    .map(Set.init)
            }
            if let value = fields["timeout"] {
                webhook.timeout = reader.duration(value, path: itemPath.key("timeout")) ?? webhook.timeout
            }
            if let value = fields["ca_file"] { webhook.caFile = caFile(value, path: itemPath.key("ca_file")) }
            if let value = fields["min_severity"],
                let severity = reader.choice(
                    value, path: itemPath.key("min_severity"), as: ReportFinding.Severity.self)
            {
                webhook.minSeverity = severity
            }
            if name != nil, url != nil { webhooks.append(webhook) }
        }
        return webhooks
    }

    /// A URL that is a credential (a webhook's, a heartbeat's), from `url`, `url_file` or `url_env`, with the key it
    /// came from and its node; refused, without showing it, when `WebhookURLRule` refuses it.
    mutating func credentialURL(
        _ fields: [String: Node], node: Node, path: ConfigurationPath, allowPrivate: Bool
    ) -> (url: String, key: String, node: Node)? {
        guard let (text, key, valueNode) = secretValue(fields, base: "url", node: node, path: path, required: true)
        else { return nil }
        if let problem = WebhookURLRule.problem(in: text, allowPrivate: allowPrivate) {
            reader.report("\(problem) (value not shown)", at: valueNode, path: path.key(key))
            return nil
        }
        return (text, key, valueNode)
    }

    /// Warnings of `config check` (issue 23 item 17) about a credential URL that works but exposes what it carries:
    /// plain `http://` beyond loopback (`plainHTTP`), and, when `inline` says why, the URL written in the file that
    /// is copied, reviewed and committed.
    mutating func warnAboutURL(
        _ found: (url: String, key: String, node: Node), path: ConfigurationPath, plainHTTP: String, inline: String?
    ) {
        let components = URLComponents(string: found.url)
        if components?.scheme?.lowercased() == "http", !Self.isLoopback(components?.host ?? "") {
            reader.warn(plainHTTP, at: found.node, path: path.key(found.key))
        }
        if found.key == "url", let inline {
            reader.warn(inline, at: found.node, path: path.key(found.key))
        }
    }

    /// `localhost`, `127.0.0.0/8` and `::1`: addresses that never leave the machine.
    static func isLoopback(_ host: String) -> Bool {
        let name = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        return name == "localhost" || name == "::1" || name.hasPrefix("127.")
    }

    private mutating func webhookSecret(
        _ fields: [String: Node], node: Node, path: ConfigurationPath, format: WebhookFormat
    ) -> WebhookSecret? {
        guard let (text, key, valueNode) = secretValue(fields, base: "secret", node: node, path: path, required: false)
        else { return nil }
        guard format == .standard else {
            reader.report(
                "only standard webhooks are signed; \(format.rawValue) receivers cannot check a secret, remove it",
                at: valueNode, path: path.key(key))
            return nil
        }
        guard text.hasPrefix("whsec_"), let key = Data(base64Encoded: String(text.dropFirst(6))), key.count >= 16 else {
            reader.report(
                "expected whsec_ followed by at least 16 base64 key bytes, e.g. from `openssl rand -base64 32` "
                    + "(value not shown)",
                at: valueNode, path: path.key(key))
            return nil
        }
        return WebhookSecret(text: text, key: Array(key))
    }

    /// The value of exactly one of `base`, `base_file`, `base_env`, with the key it came from and the node to
    /// blame. Never quotes the value.
    mutating func secretValue(
        _ fields: [String: Node], base: String, node: Node, path: ConfigurationPath, required: Bool
    ) -> (String, String, Node)? {
        let keys = [base, "\(base)_file", "\(base)_env"]
        let given = keys.filter { fields[$0] != nil }
        guard given.count == 1, let key = given.first, let valueNode = fields[key] else {
            if given.count > 1 {
                reader.report(
                    "give only one of \(given.joined(separator: ", "))", at: fields[given[1]], path: path.key(given[1]))
            } else if required {
                reader.report("missing the \(base): give one of \(keys.joined(separator: ", "))", at: node, path: path)
            }
            return nil
        }
        let keyPath = path.key(key)
        guard let written = reader.string(valueNode, path: keyPath, sensitive: key == base) else { return nil }
        switch key {
        case base:
            return (written, key, valueNode)
        case "\(base)_file":
            let file = resolvedPath(written)
            do {
                let contents = try surroundings.readFile(file)
                // One trailing line break, as `echo` and editors leave it; "\r\n" is a single Character.
                let endsWithLineBreak = contents.last == "\n" || contents.last == "\r\n"
                let trimmed = endsWithLineBreak ? String(contents.dropLast()) : contents
                guard !trimmed.isEmpty else {
                    reader.report("the file \(file) is empty", at: valueNode, path: keyPath)
                    return nil
                }
                return (trimmed, key, valueNode)
            } catch {
                reader.report("cannot read \(file): \(error)", at: valueNode, path: keyPath)
                return nil
            }
        default:
            guard let value = surroundings.environment[written] else {
                if surroundings.unsetVariables == .warning {
                    reader.warn(
                        "the environment variable \(written) is not set here; `run` refuses to start without it",
                        at: valueNode, path: keyPath)
                } else {
                    reader.report("the environment variable \(written) is not set", at: valueNode, path: keyPath)
                }
                return nil
            }
            guard !value.isEmpty else {
                reader.report("the environment variable \(written) is empty", at: valueNode, path: keyPath)
                return nil
            }
            return (value, key, valueNode)
        }
    }

    private mutating func events(_ node: Node, path: ConfigurationPath) -> Set<WebhookEvent> {
        guard let items = reader.list(node, path: path) else { return Set(WebhookEvent.allCases) }
        guard !items.isEmpty else {
            reader.report("an empty list sends nothing; remove 'events' to send every event", at: node, path: path)
            return []
        }
        var events: Set<WebhookEvent> = []
        for (index, item) in items.enumerated() {
            if let event = reader.choice(item, path: path.index(index), as: WebhookEvent.self) { events.insert(event) }
        }
        return events
    }

    /// A list of configured domains (a webhook's or a maintenance window's `domains`), normalised, in the order
    /// given, each once; a name that is not configured is reported at its item.
    mutating func configuredDomains(_ node: Node, path: ConfigurationPath, knownDomains: Set<String>) -> [String]? {
        guard let items = reader.list(node, path: path) else { return nil }
        var domains: [String] = []
        for (index, item) in items.enumerated() {
            let itemPath = path.index(index)
            guard let text = reader.string(item, path: itemPath) else { continue }
            let name: String
            do throws(DomainNameError) {
                name = try DomainName.normalize(text)
            } catch {
                reader.report(error.description, at: item, path: itemPath)
                continue
            }
            guard knownDomains.contains(name) || !knowsEveryDomain else {
                reader.report("'\(name)' is not one of the configured domains", at: item, path: itemPath)
                continue
            }
            if !domains.contains(name) { domains.append(name) }
        }
        return domains
    }
}
