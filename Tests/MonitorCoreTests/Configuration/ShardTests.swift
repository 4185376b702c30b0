import MonitorCore
import MonitorEvaluation
import Testing

@Suite("shard: K/N splits domains so each lands in exactly one shard")
struct ShardTests {
    /// Names of several shapes: numbered, deep, IDN A-labels, one-letter labels.
    static let names: [String] =
        (0..<3_000).map { "d\($0).bench.test" } + (0..<500).map { "shop-\($0).customer\($0 % 37).example.com" }
        + (0..<200).map { "xn--bcher-kva\($0).example" }
        + (UInt8(ascii: "a")...UInt8(ascii: "z")).map {
            "\(Character(UnicodeScalar($0))).io"
        }

    @Test("every name is in exactly one shard", arguments: [1, 2, 3, 4, 5, 7, 8, 16, 100])
    func exactlyOne(count: Int) throws {
        let shards = try (1...count).map { try #require(Shard(index: $0, count: count)) }
        var sizes = Array(repeating: 0, count: count)
        for name in Self.names {
            let owners = shards.filter { $0.contains(name) }
            #expect(owners.count == 1, "\(name) is in \(owners) of \(count)")
            if let owner = owners.first { sizes[owner.index - 1] += 1 }
        }
        #expect(sizes.reduce(0, +) == Self.names.count)
        // The hash spreads: with ≥ 37 names per shard expected, no shard is empty or holds twice its share.
        let share = Double(Self.names.count) / Double(count)
        #expect(sizes.allSatisfy { Double($0) > share / 2 && Double($0) < share * 2 }, "\(sizes)")
    }

    /// Pinned values: a changed hash would silently move domains between running daemons (checked twice or
    /// never) during an upgrade, so the function is part of the configuration format.
    @Test("the shard of a name is stable across versions and processes")
    func pinned() {
        #expect(Shard.shardIndex(of: "example.com", count: 4) == 2)
        #expect(Shard.shardIndex(of: "example.org", count: 4) == 3)
        #expect(Shard.shardIndex(of: "xn--bcher-kva.example", count: 3) == 2)
        #expect(Shard.shardIndex(of: "d2.bench.test", count: 10) == 9)
        #expect(Shard.shardIndex(of: "example.com", count: 1) == 1)
    }

    @Test("loaded with each K of N, the shards' domain lists partition the file's list", arguments: [1, 2, 3, 4, 6])
    func partitionThroughLoader(count: Int) throws {
        let listed = Array(Self.names.prefix(300))
        let list = listed.map { "  - \($0)\n" }.joined()
        var seen: [String] = []
        for index in 1...count {
            let configuration = try ConfigurationTestSupport.load("shard: \(index)/\(count)\ndomains:\n" + list)
            #expect(configuration.shard == Shard(index: index, count: count))
            #expect(configuration.domains.map(\.name) == listed, "the full list stays for check --config")
            let watched = configuration.shardDomains.map(\.name)
            #expect(watched == listed.filter { configuration.shard?.contains($0) == true }, "in file order")
            #expect(configuration.restrictedToShard().domains.map(\.name) == watched)
            seen += watched
        }
        #expect(seen.sorted() == listed.sorted())
    }

    @Test("a configuration without shard watches every domain")
    func noShard() throws {
        let configuration = try ConfigurationTestSupport.load("domains:\n  - example.com\n  - example.org\n")
        #expect(configuration.shard == nil)
        #expect(configuration.shardDomains.map(\.name) == ["example.com", "example.org"])
    }

    struct Bad: Sendable, CustomTestStringConvertible {
        var value: String
        var message: String
        var testDescription: String { "shard: \(value)" }
    }

    @Test(
        "a bad shard is an error at file:line: shard",
        arguments: [
            Bad(value: "0/4", message: "K must be from 1 to N (4), found '0/4'"),
            Bad(value: "5/4", message: "K must be from 1 to N (4), found '5/4'"),
            Bad(value: "1/0", message: "N must be from 1 to 4096, found '1/0'"),
            Bad(value: "a/b", message: "expected K/N, this daemon's shard K of N (like 2/4), found \"a/b\""),
            Bad(value: "4", message: "expected K/N"),
            Bad(value: "'-1/4'", message: "expected K/N"),
            Bad(value: "1/2/3", message: "expected K/N"),
            Bad(value: "[1, 4]", message: "expected K/N, this daemon's shard K of N (like 2/4), found a list"),
        ])
    func bad(_ bad: Bad) throws {
        let problems = ConfigurationTestSupport.problems("domains:\n  - example.com\nshard: \(bad.value)\n")
        let problem = try #require(problems.first, "no problem reported")
        #expect(problems.count == 1)
        #expect(problem.file == "config.yml")
        #expect(problem.line == 3)
        #expect(problem.keyPath == "shard")
        #expect(problem.message.contains(bad.message), "\(problem.message)")
    }
}
