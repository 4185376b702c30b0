/// The address of the metrics and health endpoint: `host:port`, an IPv6 host in brackets (`[::1]:9090`).
public struct ListenAddress: Sendable, Hashable, CustomStringConvertible {
    /// The host or IP address, without brackets.
    public var host: String
    /// The TCP port, 0…65535; 0 lets the system pick a free one (the daemon logs the port it got).
    public var port: Int

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// Parses `host:port` or `[v6]:port`; the error says which part is wrong.
    public init(parsing text: String) throws(ListenAddressError) {
        let host: Substring
        let portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                throw ListenAddressError(reason: "expected [IPv6]:PORT, e.g. [::1]:9090")
            }
            host = text[text.index(after: text.startIndex)..<close]
            portText = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":") else {
                throw ListenAddressError(reason: "expected HOST:PORT, e.g. 127.0.0.1:9090")
            }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
            if host.contains(":") {
                throw ListenAddressError(reason: "an IPv6 address goes in brackets, e.g. [::1]:9090")
            }
        }
        guard !host.isEmpty else {
            throw ListenAddressError(reason: "the host is empty; use 0.0.0.0:PORT or [::]:PORT to listen everywhere")
        }
        guard !host.contains(where: { $0.isWhitespace || $0 == "/" || $0 == "[" || $0 == "]" }) else {
            throw ListenAddressError(reason: "the host holds characters hosts cannot have")
        }
        guard portText.allSatisfy(\.isASCIIDigit), let port = Int(portText), (0...65_535).contains(port) else {
            throw ListenAddressError(reason: "the port must be a number from 0 to 65535")
        }
        self.init(host: String(host), port: port)
    }

    /// True for loopback hosts: anything else exposes the unauthenticated endpoint beyond this machine.
    public var isLoopback: Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }

    /// `host:port`, with brackets around an IPv6 host.
    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

/// Why a listen address could not be read.
public struct ListenAddressError: Error, Sendable, Hashable {
    public var reason: String
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
