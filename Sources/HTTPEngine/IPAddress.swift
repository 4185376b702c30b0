#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An IPv4 or IPv6 address as its bytes, however it was written.
///
/// Address rules must judge bytes, never text: `::ffff:a9fe:a9fe`, `0:0:0:0:0:FFFF:169.254.169.254` and
/// `169.254.169.254` are one destination (issue 26 §4).
public struct IPAddress: Sendable, Hashable, CustomStringConvertible {
    /// 4 bytes for IPv4, 16 for IPv6, in network order.
    public let bytes: [UInt8]

    /// An address from its 4 or 16 bytes; `nil` for any other count.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 4 || bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    /// Parses what `inet_pton` reads: dotted-quad IPv4, or IPv6 in any notation (long, compressed, upper-case,
    /// with a dotted tail). Brackets and a zone (`%eth0`, `%25eth0`) are dropped: a zone picks an interface, not
    /// another address.
    public init?(_ text: String) {
        var name = Substring(text)
        if name.hasPrefix("["), name.hasSuffix("]") { name = name.dropFirst().dropLast() }
        if let zone = name.firstIndex(of: "%") { name = name[..<zone] }
        var buffer = [UInt8](repeating: 0, count: 16)
        let family = name.contains(":") ? AF_INET6 : AF_INET
        let parsed = buffer.withUnsafeMutableBytes { inet_pton(family, String(name), $0.baseAddress) }
        guard parsed == 1 else { return nil }
        self.bytes = Array(buffer.prefix(family == AF_INET ? 4 : 16))
    }

    /// Whether this is an IPv4 address (4 bytes).
    public var isIPv4: Bool { bytes.count == 4 }

    /// The IPv4 address an IPv6 address stands for on the way to an IPv4 host: IPv4-mapped (`::ffff:0:0/96`, what a
    /// dual-stack socket connects to), IPv4-compatible (`::/96`, but not `::` or `::1`) and NAT64 (`64:ff9b::/96`,
    /// which a NAT64 gateway translates). `nil` for an IPv4 address and for other IPv6 addresses.
    public var embeddedIPv4: IPAddress? {
        guard bytes.count == 16 else { return nil }
        let head = bytes.prefix(12)
        let tail = Array(bytes.suffix(4))
        let mapped: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff]
        let nat64: [UInt8] = [0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0]
        if head.elementsEqual(mapped) || head.elementsEqual(nat64) { return IPAddress(bytes: tail) }
        if head.allSatisfy({ $0 == 0 }), tail.prefix(3).contains(where: { $0 != 0 }) || tail[3] > 1 {
            return IPAddress(bytes: tail)
        }
        return nil
    }

    /// The conventional text (`169.254.169.254`, `fe80::1`), from `inet_ntop`.
    public var description: String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        let family = isIPv4 ? AF_INET : AF_INET6
        let written = bytes.withUnsafeBytes { source in
            inet_ntop(family, source.baseAddress, &text, socklen_t(text.count))
        }
        guard written != nil else { return bytes.map { String($0) }.joined(separator: ".") }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
