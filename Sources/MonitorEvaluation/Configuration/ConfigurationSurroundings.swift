/// What a configuration refers to outside its own text: files (`url_file`, `secret_file`, CA files, the app files
/// of `apps`) and environment variables (`url_env`, `secret_env`). The loader is pure and sees them only through
/// this value, so `config check`, `run` and SIGHUP validate them in one place and tests pass fakes in.
public struct ConfigurationSurroundings {
    /// What happens to a `url_env`/`secret_env` that names an unset variable.
    public enum UnsetVariables: Sendable {
        /// A problem: `run` and SIGHUP cannot deliver without the value.
        case problem
        /// A warning: `config check` may run where the daemon's environment is not set.
        case warning
    }

    /// Variables for `url_env` and `secret_env`.
    public var environment: [String: String]
    /// Reads `url_file` and `secret_file`; its error's description is shown, so it names the reason, not contents.
    public var readFile: (String) throws -> String
    /// Why the file at a path cannot serve as a CA file (`http.ca_file`, `webhooks[].ca_file`), or `nil` when it
    /// can: it exists, is a regular readable file, and holds at least one PEM certificate.
    public var caFileProblem: (String) -> String?
    /// Reads the app file at a path (`apps[].path`, with `apps[].app_id` for an `.entitlements` file) and what it
    /// claims. The default refuses: only the shell can read apps (`ConfigurationFile` passes `ClaimedDomains`).
    public var readApp: (_ path: String, _ appID: String?) throws(AppFileProblem) -> ClaimedApp
    public var unsetVariables: UnsetVariables
    /// Whether `readApp` is called at all. A command that needs no claims passes `false`: an `.ipa` is not
    /// inflated again for each `status`, and a domain list naming a claimed domain is taken on trust.
    public var readsApps: Bool

    public init(
        environment: [String: String], readFile: @escaping (String) throws -> String,
        caFileProblem: @escaping (String) -> String?,
        readApp: @escaping (_ path: String, _ appID: String?) throws(AppFileProblem) -> ClaimedApp = {
            path, _ throws(AppFileProblem) in
            throw AppFileProblem(key: .path, message: "\(path): app files are not read here")
        },
        unsetVariables: UnsetVariables = .problem,
        readsApps: Bool = true
    ) {
        self.readsApps = readsApps
        self.environment = environment
        self.readFile = readFile
        self.caFileProblem = caFileProblem
        self.readApp = readApp
        self.unsetVariables = unsetVariables
    }
}

/// A configuration that loaded, and what is worth saying about it without refusing it.
public struct LoadedConfiguration: Sendable {
    public var configuration: MonitorConfiguration
    /// Problems that do not stop this command (an unset `url_env` in `config check`), as `file:line: key: message`.
    public var warnings: [ConfigurationProblem]
}
