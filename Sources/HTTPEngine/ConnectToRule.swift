#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One curl-style `--connect-to` mapping: requests for `host:port` connect to `targetHost:targetPort` instead.
///
/// The URL's host name is still used for SNI, the `Host` header and certificate verification, so a test or a
/// staging setup can point `origin.test` at `127.0.0.1` and keep strict TLS. The text form is curl's
/// `HOST:PORT:CONNECT-TO-HOST:CONNECT-TO-PORT`; an empty `HOST` or `PORT` matches any (`::127.0.0.1:8443` sends
/// every request to one local port), an empty target keeps the original. IPv6 addresses go in brackets.
///
/// libcurl scans the whole `CURLOPT_CONNECT_TO` list for every transfer, so the engine resolves the matching rule
/// in Swift and hands each transfer a one-entry list.
public struct ConnectToRule: Sendable, Hashable, CustomStringConvertible {
    /// The host to match, lower-cased; `nil` matches any host.
    public var host: String?
    /// The port to match; `nil` matches any port.
    public var port: Int?
    /// Where to connect instead; `nil` keeps the URL's host.
    public var targetHost: String?
    /// Which port to connect to instead; `nil` keeps the URL's port.
    public var targetPort: Int?

    /// Creates a rule from parts.
    public init(host: String?, port: Int?, targetHost: String?, targetPort: Int?) {
        self.host = host?.lowercased()
        self.port = port
        self.targetHost = targetHost
        self.targetPort = targetPort
    }

    /// Parses curl's text form, for example `origin.test:443:127.0.0.1:8443` or `::127.0.0.1:8443`.
    public init(parsing text: String) throws(ConnectToRuleError) {
        let fields = try Self.split(text)
        guard fields.count == 4 else {
            throw ConnectToRuleError(
                text: text,
                reason: "expected HOST:PORT:CONNECT-TO-HOST:CONNECT-TO-PORT (4 fields), found \(fields.count)"
            )
        }
        let port = try Self.port(fields[1], in: text, role: "PORT")
        let targetPort = try Self.port(fields[3], in: text, role: "CONNECT-TO-PORT")
        if fields[2].isEmpty && targetPort == nil {
            throw ConnectToRuleError(text: text, reason: "CONNECT-TO-HOST and CONNECT-TO-PORT are both empty")
        }
        for (field, role) in [(fields[0], "HOST"), (fields[2], "CONNECT-TO-HOST")] where !Self.isPlausibleHost(field) {
            throw ConnectToRuleError(text: text, reason: "\(role) '\(field)' is not a host name or IP address")
        }
        self.init(
            host: fields[0].isEmpty ? nil : fields[0],
            port: port,
            targetHost: fields[2].isEmpty ? nil : fields[2],
            targetPort: targetPort
        )
    }

    /// Whether requests to `host:port` use this rule.
    public func matches(host: String, port: Int) -> Bool {
        (self.host == nil || self.host == host.lowercased()) && (self.port == nil || self.port == port)
    }

    /// The rule in curl's text form, which is also what libcurl receives.
    public var description: String {
        let hostText = host.map(Self.bracketIfIPv6) ?? ""
        let targetText = targetHost.map(Self.bracketIfIPv6) ?? ""
        return "\(hostText):\(port.map(String.init) ?? ""):\(targetText):\(targetPort.map(String.init) ?? "")"
    }

    /// The first rule in `rules` that applies to `host:port`, as curl would choose it.
    public static func firstMatch(in rules: [ConnectToRule], host: String, port: Int) -> ConnectToRule? {
        rules.first { $0.matches(host: host, port: port) }
    }

    /// Whether `host` is an IPv4 or IPv6 address literal (without brackets).
    public static func isIPAddress(_ host: String) -> Bool {
        var ipv4 = in_addr()
        var ipv6 = in6_addr()
        return inet_pton(AF_INET, host, &ipv4) == 1 || inet_pton(AF_INET6, host, &ipv6) == 1
    }

    /// A host name of its own for connecting `host` to the address `target`:
    /// `h<16 hex digits>.connect-to.invalid`, from a 64-bit FNV-1a hash of both, so it is a valid DNS name
    /// whatever the lengths, and two hosts sent to one address get two names (two buckets of connections).
    public static func alias(host: String, target: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in "\(host.lowercased())|\(target)".utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return "h\(String(repeating: "0", count: 16 - hex.count))\(hex).connect-to.invalid"
    }

    /// Splits on `:` outside square brackets, so `[::1]` stays one field.
    private static func split(_ text: String) throws(ConnectToRuleError) -> [String] {
        var fields: [String] = []
        var current = ""
        var inBrackets = false
        for character in text {
            switch character {
            case "[" where !inBrackets && current.isEmpty:
                inBrackets = true
            case "]" where inBrackets:
                inBrackets = false
            case ":" where !inBrackets:
                fields.append(current)
                current = ""
            default:
                current.append(character)
            }
        }
        guard !inBrackets else {
            throw ConnectToRuleError(text: text, reason: "unterminated '[' in an IPv6 address")
        }
        fields.append(current)
        return fields
    }

    private static func port(_ field: String, in text: String, role: String) throws(ConnectToRuleError) -> Int? {
        if field.isEmpty { return nil }
        guard let value = Int(field), (1...65535).contains(value) else {
            throw ConnectToRuleError(text: text, reason: "\(role) '\(field)' is not a port number between 1 and 65535")
        }
        return value
    }

    private static func isPlausibleHost(_ field: String) -> Bool {
        field.unicodeScalars.allSatisfy { scalar in
            scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || ".-_:".unicodeScalars.contains(scalar)
        }
    }

    private static func bracketIfIPv6(_ host: String) -> String {
        host.contains(":") ? "[\(host)]" : host
    }
}

/// A `connect-to` text that could not be parsed; `description` says which part is wrong.
public struct ConnectToRuleError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The text as given.
    public var text: String
    /// What is wrong with it.
    public var reason: String

    public var description: String {
        "invalid connect-to '\(text)': \(reason)"
    }
}
