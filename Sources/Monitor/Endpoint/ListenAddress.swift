/// Where the metrics and health endpoint listens: `host:port`, with IPv6 hosts in brackets (`[::1]:9184`).
///
/// Port 0 asks the kernel for a free port (tests); the endpoint reports the one it got.
public struct ListenAddress: Sendable, Hashable, CustomStringConvertible {
    /// A host name or IP address literal, without brackets.
    public var host: String
    /// The TCP port, 0...65535.
    public var port: Int

    /// Creates an address from its parts.
    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// Parses `host:port` or `[ipv6]:port` as written in the configuration's `listen` key.
    public init(parsing text: String) throws(ListenAddressError) {
        let hostPart: Substring
        let portPart: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                throw ListenAddressError(text: text, reason: "an IPv6 address needs the form [address]:port")
            }
            hostPart = text[text.index(after: text.startIndex)..<close]
            portPart = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":") else {
                throw ListenAddressError(text: text, reason: "expected host:port")
            }
            hostPart = text[..<colon]
            portPart = text[text.index(after: colon)...]
            guard !hostPart.contains(":") else {
                throw ListenAddressError(text: text, reason: "write an IPv6 address in brackets: [address]:port")
            }
        }
        guard !hostPart.isEmpty else { throw ListenAddressError(text: text, reason: "the host is empty") }
        guard let port = Int(portPart), (0...65_535).contains(port) else {
            throw ListenAddressError(text: text, reason: "the port must be a number from 0 to 65535")
        }
        self.init(host: String(hostPart), port: port)
    }

    /// Whether only this machine can reach the address (`127.0.0.0/8`, `::1`, `localhost`).
    public var isLoopback: Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }

    /// `host:port`, with brackets around an IPv6 host.
    public var description: String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}

/// A `listen` value that is not `host:port`.
public struct ListenAddressError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The text as written.
    public var text: String
    /// What is wrong with it.
    public var reason: String

    public var description: String { "invalid listen address \"\(text)\": \(reason)" }
}
