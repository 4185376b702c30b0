/// The endpoint's access control (`endpoint`).
public struct EndpointSettings: Sendable, Hashable {
    /// The users of `basic_auth_file`; `nil` leaves every route open (the endpoint listens on loopback by default).
    public var basicAuth: BasicAuthUsers?
    /// The names (`endpoint.hosts`, normalized) a reverse proxy or a DNS name reaches the endpoint by, beside
    /// `localhost`, IP addresses and the listen host; requests naming any other host are refused (DNS rebinding).
    public var hosts: [String]

    public init(basicAuth: BasicAuthUsers? = nil, hosts: [String] = []) {
        self.basicAuth = basicAuth
        self.hosts = hosts
    }
}

/// The users of an htpasswd-style file and their crypt(3) password hashes.
///
/// Only hashes that are slow to attack are accepted: bcrypt (`$2y$`, `$2b$`, `$2a$`, what `htpasswd -B` writes)
/// and SHA-256/SHA-512-crypt (`$5$`, `$6$`, what `openssl passwd -5` and `mkpasswd -m sha-256` write). Apache's
/// MD5 (`$apr1$`), SHA-1 (`{SHA}`) and plain text entries are refused with the line that holds them.
public struct BasicAuthUsers: Sendable, Hashable, CustomStringConvertible {
    /// The prefixes of the accepted hash schemes.
    public static let acceptedPrefixes = ["$2y$", "$2b$", "$2a$", "$5$", "$6$"]

    /// Password hash by user name.
    public var hashes: [String: String]
    /// The file the users came from, for messages.
    public var file: String

    public init(hashes: [String: String], file: String) {
        self.hashes = hashes
        self.file = file
    }

    /// Names the file and the number of users, never a hash.
    public var description: String { "\(hashes.count) user(s) from \(file)" }

    /// The users of the file's `text`, or the first problem, naming its line (1-based) and what to do.
    public static func parse(_ text: String, file: String) -> Result<BasicAuthUsers, BasicAuthFileProblem> {
        var hashes: [String: String] = [:]
        for (index, rawLine) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = rawLine.trimmingSuffix(while: { $0 == " " || $0 == "\t" })
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let colon = line.firstIndex(of: ":"), colon != line.startIndex else {
                return .failure(
                    BasicAuthFileProblem(line: index + 1, message: "expected USER:HASH as htpasswd writes it"))
            }
            let user = String(line[..<colon])
            let hash = String(line[line.index(after: colon)...])
            guard acceptedPrefixes.contains(where: { hash.hasPrefix($0) }) else {
                return .failure(
                    BasicAuthFileProblem(
                        line: index + 1,
                        message: "the entry of \(user) is not bcrypt or SHA-256/512-crypt (MD5, {SHA} and plain "
                            + "text are refused); recreate it with `htpasswd -B \(file) \(user)`"))
            }
            guard hashes.updateValue(hash, forKey: user) == nil else {
                return .failure(
                    BasicAuthFileProblem(line: index + 1, message: "\(user) appears twice; keep one entry"))
            }
        }
        guard !hashes.isEmpty else {
            return .failure(
                BasicAuthFileProblem(
                    line: nil, message: "the file has no users; add one with `htpasswd -B \(file) USER`"))
        }
        return .success(BasicAuthUsers(hashes: hashes, file: file))
    }
}

/// Why a `basic_auth_file` cannot be used.
public struct BasicAuthFileProblem: Error, Sendable, Hashable {
    /// The line of the file, when one line is at fault.
    public var line: Int?
    public var message: String
}

extension Substring {
    fileprivate func trimmingSuffix(while predicate: (Character) -> Bool) -> Substring {
        var end = endIndex
        while end > startIndex, predicate(self[index(before: end)]) { end = index(before: end) }
        return self[startIndex..<end]
    }
}
