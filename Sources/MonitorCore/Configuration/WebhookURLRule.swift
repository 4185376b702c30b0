import Foundation

/// What a webhook URL may be: absolute http(s), without credentials in it, and not aimed at a link-local or
/// metadata address unless the webhook says `allow_private: true`.
///
/// Why the address rule: a configuration edited by someone who should not reach the machine's own network (or a
/// typo) could otherwise post every alert to, and read answers from, `169.254.169.254` (the cloud metadata
/// service, which hands out credentials) or another link-local or `fd00::/8` service. Only literal addresses are
/// judged here (the loader does no DNS); all IPv4 spellings libcurl accepts (`2852039166`, `0xa9.0xfe.…`) and
/// IPv4-mapped IPv6 count.
enum WebhookURLRule {
    /// Why `text` cannot be a webhook URL, never quoting it; `nil` when it can.
    static func problem(in text: String, allowPrivate: Bool) -> String? {
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

/// Literal addresses in the link-local and unique-local ranges, however they are spelled.
enum PrivateAddress {
    /// A description of the range `host` falls in (`link-local 169.254.0.0/16`), or `nil`.
    static func range(of host: String) -> String? {
        var name = host
        if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        if let v4 = ipv4(name) { return range(ofIPv4: v4) }
        guard name.contains(":") else { return nil }
        let lowered = name.lowercased().split(separator: "%").first.map(String.init) ?? ""
        // IPv4-mapped or -compatible forms: ::ffff:169.254.169.254.
        if let last = lowered.split(separator: ":").last, last.contains("."), let v4 = ipv4(String(last)) {
            return range(ofIPv4: v4)
        }
        let firstGroup = lowered.hasPrefix(":") ? "0" : String(lowered.prefix { $0 != ":" })
        guard firstGroup.count <= 4, let first = UInt16(firstGroup, radix: 16) else { return nil }
        if first & 0xffc0 == 0xfe80 { return "link-local fe80::/10" }
        if first & 0xff00 == 0xfd00 { return "unique-local fd00::/8" }
        return nil
    }

    private static func range(ofIPv4 address: UInt32) -> String? {
        address >> 16 == 0xa9fe ? "link-local 169.254.0.0/16" : nil
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
