import Crypto
import Yams

/// `shard: K/N`: this daemon watches only the domains whose stable hash falls in shard K of N (1 ≤ K ≤ N).
///
/// A fleet too large for one machine is split by running N daemons on copies of one configuration that differ
/// only in `shard` and `state_dir`. Every domain lands in exactly one shard because the shard is a pure function of
/// the domain's normalized A-label: the first 8 bytes of its SHA-256, big-endian, modulo N, plus 1. The hash never
/// depends on the order of `domains`, on the other domains, or on the process (Swift's `Hasher` is seeded per run,
/// so it cannot be used). Changing N moves domains between shards; adding or removing names moves no other
/// domain.
public struct Shard: Sendable, Hashable, CustomStringConvertible {
    /// K, counted from 1.
    public let index: Int
    /// N, the number of shards the fleet is split into.
    public let count: Int

    /// The largest N accepted: more shards than this is a configuration typo, not a fleet.
    public static let maximumCount = 4_096

    /// `nil` unless 1 ≤ `index` ≤ `count` ≤ `maximumCount`.
    public init?(index: Int, count: Int) {
        guard count >= 1, count <= Self.maximumCount, index >= 1, index <= count else { return nil }
        self.index = index
        self.count = count
    }

    /// `2/4`.
    public var description: String { "\(index)/\(count)" }

    /// The shard (1…`count`) that watches `domain`, a normalized name (the A-label, as `domains` holds it).
    public static func shardIndex(of domain: String, count: Int) -> Int {
        let digest = SHA256.hash(data: Array(domain.utf8))
        var prefix: UInt64 = 0
        for byte in digest.prefix(8) { prefix = prefix << 8 | UInt64(byte) }
        return Int(prefix % UInt64(max(1, count))) + 1
    }

    /// Whether this shard watches `domain` (a normalized name).
    public func contains(_ domain: String) -> Bool { Self.shardIndex(of: domain, count: count) == index }
}

extension MonitorConfiguration {
    /// The domains this daemon watches: all of `domains` without `shard`, else those of its shard, in file order.
    public var shardDomains: [DomainConfiguration] {
        guard let shard else { return domains }
        return domains.filter { shard.contains($0.name) }
    }

    /// This configuration with `domains` cut down to `shardDomains`: what the daemon runs with. One-off commands
    /// (`check --config`) keep every domain.
    public func restrictedToShard() -> MonitorConfiguration {
        var restricted = self
        restricted.domains = shardDomains
        return restricted
    }
}

extension ConfigurationBuilder {
    /// `shard: K/N`, both whole numbers, 1 ≤ K ≤ N.
    mutating func shard(_ node: Node, path: ConfigurationPath) -> Shard? {
        // Any scalar is read as text, so `shard: 4` gets the K/N advice rather than "expected a string".
        let text = ConfigurationReader.isScalar(node) ? node.scalar?.string ?? "" : ""
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        if parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            let index = Int(parts[0]), let count = Int(parts[1])
        {
            if let shard = Shard(index: index, count: count) { return shard }
            let problem =
                count < 1 || count > Shard.maximumCount
                ? "N must be from 1 to \(Shard.maximumCount)" : "K must be from 1 to N (\(count))"
            reader.report(
                "\(problem), found '\(ConfigurationReader.truncated(text))'; shards are numbered 1/N to N/N",
                at: node, path: path)
            return nil
        }
        reader.report(
            "expected K/N, this daemon's shard K of N (like 2/4), found \(ConfigurationReader.describe(node))",
            at: node, path: path)
        return nil
    }
}
