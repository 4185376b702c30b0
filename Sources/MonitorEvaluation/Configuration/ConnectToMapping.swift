/// One curl-style `connect_to` entry, `HOST:PORT:CONNECT-TO-HOST:CONNECT-TO-PORT`, parsed once into its parts.
///
/// The configuration's `http.connect_to` and `check --connect-to` are both read by `parse`, so one text is accepted
/// or refused alike, with the same reason; the monitor turns a mapping into the engine's `ConnectToRule` field by
/// field, never by parsing text again. An empty HOST or PORT matches any (`::127.0.0.1:8443`); an empty target
/// keeps the original; IPv6 addresses go in brackets.
public struct ConnectToMapping: Sendable, Hashable, CustomStringConvertible {
    /// The host to match, lower-cased; `nil` matches any host.
    public var host: String?
    /// The port to match; `nil` matches any port.
    public var port: Int?
    /// Where to connect instead; `nil` keeps the URL's host.
    public var targetHost: String?
    /// Which port to connect to instead; `nil` keeps the URL's port.
    public var targetPort: Int?

    public init(host: String?, port: Int?, targetHost: String?, targetPort: Int?) {
        self.host = host?.lowercased()
        self.port = port
        self.targetHost = targetHost
        self.targetPort = targetPort
    }

    /// Reads curl's text form, for example `origin.test:443:127.0.0.1:8443` or `::127.0.0.1:8443`; the reason names
    /// no setting, the caller does (`http.connect_to[0]` with its line, or `--connect-to`).
    public static func parse(_ text: String) -> Result<ConnectToMapping, SettingValueError> {
        guard let fields = split(text) else { return failure("an IPv6 address is missing its closing bracket") }
        guard fields.count == 4 else {
            return failure("expected HOST:PORT:CONNECT-TO-HOST:CONNECT-TO-PORT (4 fields), found \(fields.count)")
        }
        var ports: [Int?] = []
        for (field, role) in [(fields[1], "PORT"), (fields[3], "CONNECT-TO-PORT")] {
            if field.isEmpty {
                ports.append(nil)
                continue
            }
            guard field.allSatisfy(\.isASCIIDigit), let port = Int(field), (1...65_535).contains(port) else {
                return failure("\(role) must be empty or a number from 1 to 65535")
            }
            ports.append(port)
        }
        if fields[2].isEmpty && fields[3].isEmpty {
            return failure("CONNECT-TO-HOST and CONNECT-TO-PORT are both empty")
        }
        for (field, role) in [(fields[0], "HOST"), (fields[2], "CONNECT-TO-HOST")] where !isPlausibleHost(field) {
            return failure("\(role) is not a host name or IP address")
        }
        return .success(
            ConnectToMapping(
                host: fields[0].isEmpty ? nil : fields[0], port: ports[0],
                targetHost: fields[2].isEmpty ? nil : fields[2], targetPort: ports[1]))
    }

    /// The mapping in curl's text form.
    public var description: String {
        let hostText = host.map(Self.bracketIfIPv6) ?? ""
        let targetText = targetHost.map(Self.bracketIfIPv6) ?? ""
        return "\(hostText):\(port.map(String.init) ?? ""):\(targetText):\(targetPort.map(String.init) ?? "")"
    }

    private static func failure(_ reason: String) -> Result<ConnectToMapping, SettingValueError> {
        .failure(SettingValueError(reason: reason))
    }

    /// The colon-separated fields, a bracketed IPv6 address kept whole; `nil` for an unclosed bracket.
    private static func split(_ text: String) -> [String]? {
        var fields: [String] = []
        var current = ""
        var inBrackets = false
        for character in text {
            switch character {
            case "[" where current.isEmpty: inBrackets = true
            case "]" where inBrackets: inBrackets = false
            case ":" where !inBrackets:
                fields.append(current)
                current = ""
            default: current.append(character)
            }
        }
        guard !inBrackets else { return nil }
        fields.append(current)
        return fields
    }

    private static func isPlausibleHost(_ field: String) -> Bool {
        field.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-" || $0 == ":") }
    }

    private static func bracketIfIPv6(_ host: String) -> String {
        host.contains(":") ? "[\(host)]" : host
    }
}
