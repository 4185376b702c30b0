/// Checks the shape of a curl-style `connect_to` entry, `HOST:PORT:CONNECT-TO-HOST:CONNECT-TO-PORT`.
///
/// The HTTP engine parses the entry for real (`ConnectToRule`); MonitorCore cannot import the engine, so this
/// checks the same shape early enough to report it with a line number. An empty HOST or PORT matches any
/// (`::127.0.0.1:8443`); IPv6 addresses go in brackets.
enum ConnectToShape {
    /// Why `text` is not a connect-to entry, or `nil` when it is one.
    static func problem(in text: String) -> String? {
        guard let fields = split(text) else { return "an IPv6 address is missing its closing bracket" }
        guard fields.count == 4 else {
            return "expected HOST:PORT:CONNECT-TO-HOST:CONNECT-TO-PORT (4 fields), found \(fields.count)"
        }
        for (field, role) in [(fields[1], "PORT"), (fields[3], "CONNECT-TO-PORT")] where !field.isEmpty {
            guard field.allSatisfy(\.isASCIIDigit), let port = Int(field), (1...65_535).contains(port) else {
                return "\(role) must be empty or a number from 1 to 65535"
            }
        }
        if fields[2].isEmpty && fields[3].isEmpty { return "CONNECT-TO-HOST and CONNECT-TO-PORT are both empty" }
        for (field, role) in [(fields[0], "HOST"), (fields[2], "CONNECT-TO-HOST")] where !isPlausibleHost(field) {
            return "\(role) is not a host name or IP address"
        }
        return nil
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
}
