import Yams

/// `apps[]`: app files whose claimed domains are watched, each claim an expectation (issue 22, item 4).
extension ConfigurationBuilder {
    /// The apps, with every domain they claim added to `domains`: a domain already configured gets the claims
    /// merged into its own `expect`, any other is appended in the order first claimed.
    ///
    /// The file is read through `ConfigurationSurroundings.readApp`, so an unreadable or hostile file is a problem
    /// at `apps[N].path` like a missing `ca_file`, and a reload reads it again. The app's own problems that belong
    /// to no domain (an unknown service, a binary without app ID) are warnings: the other claims are still watched.
    mutating func apps(
        _ node: Node, path: ConfigurationPath, domains: inout [DomainConfiguration]
    ) -> [AppConfiguration] {
        guard let items = reader.list(node, path: path) else { return [] }
        var apps: [AppConfiguration] = []
        // Where each domain is in `domains`, so merging thousands of claims is no quadratic search.
        var positions = Dictionary(domains.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        for (index, item) in items.enumerated() {
            let itemPath = path.index(index)
            guard let fields = reader.fields(of: item, path: itemPath, allowed: ["path", "app_id"]) else { continue }
            guard let pathNode = fields["path"] else {
                reader.report(
                    "missing 'path', the app file: an .ipa, .app, .xcarchive, Mach-O executable or .entitlements",
                    at: item, path: itemPath)
                continue
            }
            guard let written = reader.string(pathNode, path: itemPath.key("path")) else { continue }
            var appID: String?
            if let value = fields["app_id"] {
                guard let text = reader.string(value, path: itemPath.key("app_id")) else { continue }
                guard AppIDShape.isValid(Substring(text)) else {
                    reader.report(
                        AppIDShape.problem(found: ConfigurationReader.describe(value)), at: value,
                        path: itemPath.key("app_id"))
                    continue
                }
                appID = text
            }
            let file = resolvedPath(written)
            guard surroundings.readsApps else {
                apps.append(AppConfiguration(path: file, appID: appID))
                continue
            }
            let claimed: ClaimedApp
            do throws(AppFileProblem) {
                claimed = try surroundings.readApp(file, appID)
            } catch {
                switch error.key {
                case .path: reader.report(error.message, at: pathNode, path: itemPath.key("path"))
                case .appID:
                    reader.report(error.message, at: fields["app_id"] ?? pathNode, path: itemPath.key("app_id"))
                case .missingAppID: reader.report("missing 'app_id': \(error.message)", at: item, path: itemPath)
                }
                continue
            }
            for problem in claimed.problems { reader.warn(problem, at: pathNode, path: itemPath.key("path")) }
            for claim in claimed.domains {
                if let existing = positions[claim.name] {
                    domains[existing].expect.merge(claim.expect)
                } else {
                    positions[claim.name] = domains.count
                    domains.append(claim)
                }
            }
            apps.append(AppConfiguration(path: file, appID: appID, domains: claimed.domains.map(\.name)))
        }
        return apps
    }
}
