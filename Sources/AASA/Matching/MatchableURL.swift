/// A URL split into the parts Apple matches, still percent-encoded as a device would hold it.
///
/// Written by hand rather than with `URLComponents`, which refuses some URLs people do paste (spaces, non-ASCII)
/// and normalizes others; here characters a browser would encode are percent-encoded (upper-case hex, as Apple's
/// URL loading does) and nothing else changes, so `percentEncoded: true` rules see the exact encoded text.
public struct MatchableURL: Sendable, Hashable {
    /// The host, lower-cased, without port, user info or a trailing dot.
    public let host: String
    /// The encoded path; `""` when the URL has none.
    public let path: String
    /// The encoded query after `?` and before `#`, or `nil` when there is no `?`.
    public let query: String?
    /// The encoded fragment after `#`, or `nil` when there is no `#`.
    public let fragment: String?

    /// Parses an absolute `http` or `https` URL.
    public init(_ text: String) throws(URLMatchError) {
        guard let colon = text.firstIndex(of: ":"), text[colon...].hasPrefix("://") else {
            throw URLMatchError(url: text, reason: "it is not an absolute URL (expected https://host/path)")
        }
        let scheme = text[..<colon].lowercased()
        guard scheme == "https" || scheme == "http" else {
            throw URLMatchError(url: text, reason: "universal links are https URLs, not \(scheme)")
        }
        let rest = text[text.index(colon, offsetBy: 3)...]
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
        let hostName = Self.hostName(fromAuthority: rest[..<authorityEnd])
        guard !hostName.isEmpty else { throw URLMatchError(url: text, reason: "it has no host") }
        host = hostName

        var remainder = rest[authorityEnd...]
        if let hash = remainder.firstIndex(of: "#") {
            fragment = Self.encode(remainder[remainder.index(after: hash)...])
            remainder = remainder[..<hash]
        } else {
            fragment = nil
        }
        if let question = remainder.firstIndex(of: "?") {
            query = Self.encode(remainder[remainder.index(after: question)...])
            remainder = remainder[..<question]
        } else {
            query = nil
        }
        path = Self.encode(remainder)
    }

    private static func hostName(fromAuthority authority: Substring) -> String {
        var host = authority
        if let at = host.lastIndex(of: "@") { host = host[host.index(after: at)...] }
        if host.hasPrefix("[") {
            if let close = host.firstIndex(of: "]") { host = host[...close] }
        } else if let colon = host.lastIndex(of: ":") {
            host = host[..<colon]
        }
        if host.hasSuffix(".") { host = host.dropLast() }
        return host.lowercased()
    }

    /// Percent-encodes what may not appear raw in a URL (non-ASCII, controls, space and `"<>\^`{|}`); existing
    /// escapes are kept exactly as written, hex case included.
    static func encode(_ text: Substring) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if byte > 0x20 && byte < 0x7F && !Self.unsafeASCII.contains(byte) {
                bytes.append(byte)
            } else {
                bytes.append(UInt8(ascii: "%"))
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0x0F)])
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static let unsafeASCII: Set<UInt8> = Set("\"<>\\^`{|}".utf8)
}

/// A URL given to the matcher that cannot be a universal link.
public struct URLMatchError: Error, Sendable, Hashable, CustomStringConvertible {
    public let url: String
    public let reason: String

    public var description: String { "cannot evaluate \(url): \(reason)" }
}
