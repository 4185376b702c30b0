/// A named block of addresses (`169.254.0.0/16`) that a request refuses to connect to
/// (`HTTPRequest.refusedAddresses`).
///
/// An IPv6 address that carries an IPv4 address (`IPAddress.embeddedIPv4`) is judged by both, so
/// `::ffff:169.254.169.254` falls in `169.254.0.0/16`.
public struct AddressBlock: Sendable, Hashable, CustomStringConvertible {
    /// What the block is, for messages (`link-local`).
    public let name: String
    /// The block's first address.
    public let network: IPAddress
    /// How many leading bits of an address must equal the network's.
    public let prefixLength: Int

    /// A block from CIDR notation (`169.254.0.0/16`, `fe80::/10`); `nil` when it cannot be parsed or the prefix is
    /// longer than the address.
    public init?(_ cidr: String, name: String) {
        let parts = cidr.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let network = IPAddress(String(parts[0])), let length = Int(parts[1]),
            (0...network.bytes.count * 8).contains(length)
        else { return nil }
        self.name = name
        self.network = network
        self.prefixLength = length
    }

    /// Whether `address`, or the IPv4 address it carries, lies in the block.
    public func contains(_ address: IPAddress) -> Bool {
        if matches(address) { return true }
        if let embedded = address.embeddedIPv4 { return matches(embedded) }
        return false
    }

    private func matches(_ address: IPAddress) -> Bool {
        guard address.bytes.count == network.bytes.count else { return false }
        var remaining = prefixLength
        for (candidate, wanted) in zip(address.bytes, network.bytes) where remaining > 0 {
            let bits = min(8, remaining)
            let mask = UInt8(truncatingIfNeeded: 0xff << (8 - bits))
            guard candidate & mask == wanted & mask else { return false }
            remaining -= bits
        }
        return true
    }

    /// `link-local 169.254.0.0/16`.
    public var description: String { "\(name) \(network)/\(prefixLength)" }
}
