import Yams

/// The `endpoint` section: access control of the HTTP endpoint.
extension ConfigurationBuilder {
    mutating func endpoint(_ node: Node, path: ConfigurationPath) -> EndpointSettings {
        var settings = EndpointSettings()
        guard let fields = reader.fields(of: node, path: path, allowed: ["basic_auth_file"]) else { return settings }
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
}
