import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// What a webhook URL may be: absolute http(s), without white space, control characters or credentials in it,
/// and not aimed at a link-local or metadata address unless the webhook says `allow_private: true`.
///
/// Why the address rule: a configuration edited by someone who should not reach the machine's own network (or a
/// typo) could otherwise post every alert to, and read answers from, `169.254.169.254` (the cloud metadata
/// service, which hands out credentials) or another link-local or `fd00::/8` service. Only literal addresses are
/// judged here (the loader does no DNS), in every spelling libcurl accepts: IPv4 as `inet_aton` reads it
/// (`2852039166`, `0xa9.0xfe.…`) and IPv6 in any notation, IPv4-mapped (`::ffff:a9fe:a9fe`), long or upper-case.
/// Names are judged when delivery connects, on the address actually connected to (`PrivateAddress.ranges`).
enum WebhookURLRule {
    /// Why `text` cannot be a webhook URL, never quoting it; `nil` when it can.
    static func problem(in text: String, allowPrivate: Bool) -> String? {
        // libcurl refuses a URL with a space or a control character at every delivery; say so now.
        if text.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7f }) {
            return "the URL contains white space or a control character (a space, tab, CR or LF), which libcurl "
                + "refuses; percent-encode it (%20) or remove it"
        }
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased() else {
            return "expected an absolute http or https URL"
        }
        guard scheme == "http" || scheme == "https" else {
            let shown = scheme.count <= 10 && scheme.allSatisfy { $0.isASCII && $0.isLetter } ? " \(scheme)://" : ""
            return "expected an http or https URL; the scheme\(shown) is refused"
        }
        guard let host = components.host, !host.isEmpty else { return "expected an absolute http or https URL" }
        guard components.user == nil, components.password == nil, !authority(text).contains("@")
        else {
            return "the URL carries credentials (user:password@); give the token through the URL's path, "
                + "secret or secret_env instead"
        }
        if !allowPrivate, let range = PrivateAddress.range(of: host) {
            return "the host is a \(range) address, where cloud metadata and local services live; set "
                + "allow_private: true on this webhook if that receiver is intended"
        }
        return nil
    }

    /// The text between `scheme://` and the next `/`, `?` or `#`.
    private static func authority(_ text: String) -> Substring {
        guard let start = text.range(of: "://")?.upperBound else { return "" }
        let rest = text[start...]
        return rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
    }
}

/// The address ranges a receiver may not be in without `allow_private`, and how to recognise a literal address
/// in them however it is spelled.
///
/// The one list of these ranges: `config check` judges literal hosts with it, and delivery hands the same ranges
/// to the engine, which judges the address it actually connects to after DNS (`HTTPRequest.refusedAddresses`).
public enum PrivateAddress {
    /// One refused range.
    public struct Range: Sendable, Hashable, CustomStringConvertible {
        /// `link-local` or `unique-local`.
        public var name: String
        /// CIDR notation: `169.254.0.0/16`.
        public var cidr: String
        /// `link-local 169.254.0.0/16`.
        public var description: String { "\(name) \(cidr)" }
    }

    /// Link-local IPv4 (the cloud metadata service at `169.254.169.254`) and IPv6, and unique-local IPv6 (AWS's
    /// metadata service at `fd00:ec2::254`).
    public static let ranges: [Range] = [
        Range(name: "link-local", cidr: "169.254.0.0/16"),
        Range(name: "link-local", cidr: "fe80::/10"),
        Range(name: "unique-local", cidr: "fd00::/8"),
    ]

    /// A description of the range `host` falls in (`link-local 169.254.0.0/16`), or `nil` (a name, or an address
    /// outside every range). An IPv6 address that carries an IPv4 one (IPv4-mapped `::ffff:0:0/96`,
    /// IPv4-compatible `::/96`, NAT64 `64:ff9b::/96`) is judged by the IPv4 address too.
    public static func range(of host: String) -> String? {
        guard let bytes = addressBytes(host) else { return nil }
        var candidates = [bytes]
        if let embedded = embeddedIPv4(bytes) { candidates.append(embedded) }
        for candidate in candidates {
            if let range = ranges.first(where: { contains($0, candidate) }) { return range.description }
        }
        return nil
    }

    /// The bytes of a literal address: IPv4 as `inet_aton` reads it, IPv6 (brackets and zone dropped) as
    /// `inet_pton` does.
    static func addressBytes(_ host: String) -> [UInt8]? {
        var name = Substring(host)
        if name.hasPrefix("["), name.hasSuffix("]") { name = name.dropFirst().dropLast() }
        if let v4 = ipv4(String(name)) { return withUnsafeBytes(of: v4.bigEndian) { Array($0) } }
        guard name.contains(":") else { return nil }
        if let zone = name.firstIndex(of: "%") { name = name[..<zone] }
        var buffer = [UInt8](repeating: 0, count: 16)
        let parsed = buffer.withUnsafeMutableBytes { inet_pton(AF_INET6, String(name), $0.baseAddress) }
        return parsed == 1 ? buffer : nil
    }

    /// The IPv4 address in an IPv4-mapped, IPv4-compatible (not `::` or `::1`) or NAT64 IPv6 address.
    static func embeddedIPv4(_ bytes: [UInt8]) -> [UInt8]? {
        guard bytes.count == 16 else { return nil }
        let head = bytes.prefix(12)
        let tail = Array(bytes.suffix(4))
        if head.elementsEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff])
            || head.elementsEqual([0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0])
        {
            return tail
        }
        if head.allSatisfy({ $0 == 0 }), tail.prefix(3).contains(where: { $0 != 0 }) || tail[3] > 1 { return tail }
        return nil
    }

    private static func contains(_ range: Range, _ bytes: [UInt8]) -> Bool {
        let parts = range.cidr.split(separator: "/")
        guard parts.count == 2, let length = Int(parts[1]), let network = addressBytes(String(parts[0])),
            network.count == bytes.count
        else { return false }
        var remaining = length
        for (candidate, wanted) in zip(bytes, network) where remaining > 0 {
            let bits = min(8, remaining)
            let mask = UInt8(truncatingIfNeeded: 0xff << (8 - bits))
            guard candidate & mask == wanted & mask else { return false }
            remaining -= bits
        }
        return true
    }
    /// An IPv4 address as `inet_aton` reads it: one to four parts, each decimal, octal (`0…`) or hex (`0x…`),
    /// the last filling the remaining bytes.
    static func ipv4(_ text: String) -> UInt32? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...4).contains(parts.count) else { return nil }
        var values: [UInt64] = []
        for part in parts {
            let lower = part.lowercased()
            let value: UInt64?
            if lower.hasPrefix("0x") {
                value = UInt64(lower.dropFirst(2), radix: 16)
            } else if lower.hasPrefix("0"), lower.count > 1 {
                value = UInt64(lower.dropFirst(), radix: 8)
            } else {
                value = lower.allSatisfy(\.isASCIIDigit) ? UInt64(lower) : nil
            }
            guard let value, value <= UInt64(UInt32.max) else { return nil }
            values.append(value)
        }
        var address: UInt64 = 0
        for value in values.dropLast() {
            guard value <= 255 else { return nil }
            address = address << 8 | value
        }
        let remaining = 4 - (values.count - 1)
        guard let last = values.last, last < (UInt64(1) << (8 * remaining)) else { return nil }
        return UInt32(address << (8 * UInt64(remaining)) | last)
    }
}
