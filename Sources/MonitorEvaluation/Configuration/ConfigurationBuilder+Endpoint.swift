import Yams

/// The `endpoint` section: access control of the HTTP endpoint.
extension ConfigurationBuilder {
    mutating func endpoint(_ node: Node, path: ConfigurationPath) -> EndpointSettings {
        var settings = EndpointSettings()
        guard let fields = reader.fields(of: node, path: path, allowed: ["basic_auth_file", "hosts"]) else {
            return settings
        }
        if let value = fields["hosts"], let items = reader.list(value, path: path.key("hosts")) {
            for (index, item) in items.enumerated() {
                if let name = endpointHost(item, path: path.key("hosts").index(index)) { settings.hosts.append(name) }
            }
        }
        let keyPath = path.key("basic_auth_file")
        if let value = fields["basic_auth_file"], let written = reader.string(value, path: keyPath) {
            let file = resolvedPath(written)
            let text: String
            do {
                text = try surroundings.readFile(file)
            } catch {
                reader.report(
                    "cannot read \(file): \(error); create it with `htpasswd -B -c \(file) USER`", at: value,
                    path: keyPath)
                return settings
            }
            switch BasicAuthUsers.parse(text, file: file) {
            case .success(let users):
                settings.basicAuth = users
            case .failure(let problem):
                let location = problem.line.map { "\(file):\($0): " } ?? "\(file): "
                reader.report(location + problem.message, at: value, path: keyPath)
            }
        }
        return settings
    }

    /// One name of `endpoint.hosts`: a bare host name (no scheme, port or wildcard), as a browser writes it in `Host`.
    private mutating func endpointHost(_ node: Node, path: ConfigurationPath) -> String? {
        guard let written = reader.string(node, path: path) else { return nil }
        if written.contains("*") {
            reader.report(
                "'\(written)' is a wildcard; list each name the endpoint is reached by, e.g. status.example.com",
                at: node, path: path)
            return nil
        }
        do {
            return try DomainName.normalize(written)
        } catch {
            reader.report("\(error); give the name alone, e.g. status.example.com", at: node, path: path)
            return nil
        }
    }
}
