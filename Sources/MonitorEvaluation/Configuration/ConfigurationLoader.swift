import Yams

/// Builds a `MonitorConfiguration` from YAML text, reporting every problem with file, line and key path.
///
/// Decodes through Yams' `Node` tree rather than `Codable`, because nodes carry their line: an operator must be
/// told `config.yml:12: domains[1].expect.urls[0].decision: …`, not "the data couldn't be read". The loader is
/// pure: files (`url_file`, `secret_file`, CA files, the app files of `apps`) and variables (`url_env`,
/// `secret_env`) come through `ConfigurationSurroundings`, so a problem with any of them is reported at the key
/// that names it.
///
/// - An empty file, or one without `domains`, is valid: it watches nothing (`config check` says "0 domains").
/// - Relative paths (`state_dir`, `http.ca_file`, `*_file`, `apps[].path`) are relative to the configuration file's
///   directory.
///
/// ```swift
/// let configuration = try ConfigurationLoader.load(
///     text: yaml, fileName: "config.yml", environment: ProcessInfo.processInfo.environment,
///     readFile: { try String(contentsOfFile: $0, encoding: .utf8) })
/// ```
public enum ConfigurationLoader {
    /// The top-level keys, in the order the documented example explains them.
    static let topLevelKeys = [
        "state_dir", "interval", "listen", "endpoint", "http", "tls", "cdn", "retention", "alerts", "webhooks",
        "domains", "apps", "shard", "maintenance", "heartbeat", "store",
    ]

    /// The configuration `text` describes with its warnings, or every problem in it.
    ///
    /// - Parameters:
    ///   - text: The YAML document.
    ///   - fileName: How errors name the file (and the base of relative paths).
    ///   - surroundings: The files and variables the configuration refers to.
    public static func load(
        text: String, fileName: String, surroundings: ConfigurationSurroundings
    ) throws(ConfigurationErrors) -> LoadedConfiguration {
        var builder = ConfigurationBuilder(fileName: fileName, surroundings: surroundings)
        let configuration = builder.build(text: text)
        guard builder.reader.problems.isEmpty, let configuration else {
            throw ConfigurationErrors(problems: builder.reader.problems)
        }
        return LoadedConfiguration(configuration: configuration, warnings: builder.reader.warnings)
    }

    /// The configuration `text` describes, or every problem in it; CA files are not looked at (for tests of the
    /// text alone; the daemon and commands go through `ConfigurationFile`, which checks them).
    public static func load(
        text: String, fileName: String, environment: [String: String], readFile: (String) throws -> String
    ) throws(ConfigurationErrors) -> MonitorConfiguration {
        let outcome = withoutActuallyEscaping(readFile) { readFile in
            var builder = ConfigurationBuilder(
                fileName: fileName,
                surroundings: ConfigurationSurroundings(
                    environment: environment, readFile: readFile, caFileProblem: { _ in nil }))
            let configuration = builder.build(text: text)
            return (configuration, builder.reader.problems)
        }
        guard outcome.1.isEmpty, let configuration = outcome.0 else {
            throw ConfigurationErrors(problems: outcome.1)
        }
        return configuration
    }
}

/// The state of one load: the reader with its collected problems, and the injected outside world.
struct ConfigurationBuilder {
    var reader: ConfigurationReader
    let fileName: String
    let surroundings: ConfigurationSurroundings
    /// False once `apps` named files whose claims were not read: a webhook's or maintenance window's `domains`
    /// may then name a claimed domain the loader cannot see, so such names are not refused.
    var knowsEveryDomain = true

    init(fileName: String, surroundings: ConfigurationSurroundings) {
        self.reader = ConfigurationReader(fileName: fileName)
        self.fileName = fileName
        self.surroundings = surroundings
    }

    /// The configuration, or `nil` when the text is not YAML or its top level is not a mapping.
    mutating func build(text: String) -> MonitorConfiguration? {
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch {
            let (line, message) = YAMLSyntaxProblem.describe(error, text: text)
            reader.report("invalid YAML: \(message)", line: line, path: .root)
            return nil
        }
        var configuration = MonitorConfiguration()
        guard let root, !ConfigurationReader.isNull(root) else { return configuration }
        guard let fields = reader.fields(of: root, path: .root, allowed: ConfigurationLoader.topLevelKeys) else {
            return nil
        }
        let path = ConfigurationPath.root
        if let node = fields["state_dir"], let value = reader.string(node, path: path.key("state_dir")) {
            configuration.stateDirectory = resolvedPath(value)
        }
        if let node = fields["interval"] {
            configuration.interval =
                reader.duration(node, path: path.key("interval"), minimum: MonitorConfiguration.minimumInterval)
                ?? configuration.interval
        }
        if let node = fields["listen"] { configuration.listen = listenAddress(node, path: path.key("listen")) }
        if let node = fields["endpoint"] { configuration.endpoint = endpoint(node, path: path.key("endpoint")) }
        if let node = fields["http"] { configuration.http = http(node, path: path.key("http")) }
        if let node = fields["tls"] { configuration.tls = tls(node, path: path.key("tls")) }
        if let node = fields["cdn"] { configuration.cdn = cdn(node, path: path.key("cdn")) }
        if let node = fields["retention"] {
            configuration.retention =
                reader.duration(node, path: path.key("retention"), minimum: .seconds(3_600)) ?? configuration.retention
        }
        if let node = fields["alerts"] { configuration.alerts = alerts(node, path: path.key("alerts")) }
        if let node = fields["domains"] { configuration.domains = domains(node, path: path.key("domains")) }
        // After `domains` (a claimed domain merges into its configured entry), before `webhooks` (whose `domains`
        // may name a claimed one).
        if let node = fields["apps"] {
            configuration.apps = apps(node, path: path.key("apps"), domains: &configuration.domains)
            configuration.appClaimsRead = surroundings.readsApps || configuration.apps.isEmpty
            knowsEveryDomain = configuration.appClaimsRead
        }
        if let node = fields["shard"] { configuration.shard = shard(node, path: path.key("shard")) }
        if let node = fields["heartbeat"] { configuration.heartbeat = heartbeat(node, path: path.key("heartbeat")) }
        if let node = fields["store"] {
            configuration.store = store(node, path: path.key("store"))
            if configuration.store != nil, let shard = fields["shard"] {
                reader.report(
                    "a cluster (store: postgres:) shares every domain among its daemons; remove shard", at: shard,
                    path: path.key("shard"))
            }
        }
        if let node = fields["maintenance"] {
            configuration.maintenance = maintenance(
                node, path: path.key("maintenance"), knownDomains: Set(configuration.domains.map(\.name)))
        }
        if let node = fields["webhooks"] {
            let known = Set(configuration.domains.map(\.name))
            configuration.webhooks = webhooks(node, path: path.key("webhooks"), knownDomains: known)
        }
        return configuration
    }

    /// `path` as given when absolute, else relative to the configuration file's directory.
    func resolvedPath(_ path: String) -> String {
        guard !path.hasPrefix("/"), let slash = fileName.lastIndex(of: "/") else { return path }
        return String(fileName[...slash]) + path
    }
}
