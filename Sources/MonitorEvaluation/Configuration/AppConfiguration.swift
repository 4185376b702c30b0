/// One app whose build the daemon watches for (`apps[]`): every domain it claims is watched, with its claims as
/// that domain's expectations (issue 22, item 4), so nobody types `expect.apps` by hand.
public struct AppConfiguration: Sendable, Hashable {
    /// The app file (`.ipa`, `.app`, `.xcarchive`, a Mach-O executable or `.entitlements`), resolved against the
    /// configuration file's directory.
    public var path: String
    /// The app ID of an `.entitlements` file (`app_id`), which names no app itself; `nil` for every other file.
    public var appID: String?
    /// The domains the app claims, as A-labels, in the order first claimed.
    public var domains: [String]

    public init(path: String, appID: String? = nil, domains: [String] = []) {
        self.path = path
        self.appID = appID
        self.domains = domains
    }
}

/// What the shell read from an app file named under `apps[]`: each claimed domain with the expectations its
/// claims make, and the app's own problems. The loader is pure; `ConfigurationSurroundings.readApp` produces this.
public struct ClaimedApp: Sendable, Hashable {
    /// Each claimed domain (name normalized) with its expectations, in the order first claimed.
    public var domains: [DomainConfiguration]
    /// What is wrong with a claim that belongs to no domain (an unknown service, a binary without app ID), one
    /// line each: warnings of the configuration, since the other claims are still watched.
    public var problems: [String]

    public init(domains: [DomainConfiguration], problems: [String] = []) {
        self.domains = domains
        self.problems = problems
    }
}

/// Why an app file named under `apps[]` cannot be used: the reader's one line, and which key it is about.
public struct AppFileProblem: Error, Sendable, Hashable {
    /// The key the problem is reported at.
    public enum Key: Sendable, Hashable {
        /// The file: unreadable, not an app, hostile (`apps[0].path`).
        case path
        /// The app ID: not `TEAMID.bundle.id`, or given for a file that names its own app (`apps[0].app_id`).
        case appID
        /// An `.entitlements` file without `app_id` (reported at the entry, which lacks the key).
        case missingAppID
    }

    public var key: Key
    /// One line naming the file and what is wrong (`AppClaimsError.description`).
    public var message: String

    public init(key: Key, message: String) {
        self.key = key
        self.message = message
    }
}
