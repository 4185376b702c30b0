import Logging
import Testing

@testable import Monitor

/// The endpoint accepts a connection only while the process keeps its descriptor reserve (issue 26 §1).
@Suite("endpoint connection gate")
struct EndpointConnectionGateTests {
    static func gate(free: Int?, maximum: Int = 64, reserve: Int = 32) -> EndpointConnectionGate {
        EndpointConnectionGate(
            maximumConnections: maximum, descriptorReserve: reserve, logger: Logger(label: "test"),
            freeDescriptors: { free })
    }

    @Test("with connections open, it accepts only while the reserve stays free")
    func reserve() {
        var plenty = Self.gate(free: 32)
        plenty.connectionOpened()
        #expect(plenty.isAcceptingNewConnections())
        var short = Self.gate(free: 31)
        short.connectionOpened()
        #expect(!short.isAcceptingNewConnections())
        var unknown = Self.gate(free: nil)
        unknown.connectionOpened()
        #expect(!unknown.isAcceptingNewConnections(), "descriptors that cannot be counted are taken as none")
    }

    @Test("with none open it accepts whatever is free: nothing else would wake the listener")
    func noneOpen() {
        #expect(Self.gate(free: 0).isAcceptingNewConnections())
    }

    @Test("the connection limit holds however many descriptors are free")
    func maximum() {
        var gate = Self.gate(free: Int.max, maximum: 2)
        gate.connectionOpened()
        #expect(gate.isAcceptingNewConnections())
        gate.connectionOpened()
        #expect(!gate.isAcceptingNewConnections())
        gate.connectionClosed()
        #expect(gate.isAcceptingNewConnections())
    }

    @Test("the process counts its own free descriptors under its soft limit")
    func counting() throws {
        let free = try #require(LocalResources.freeDescriptors())
        #expect(free > 0)
    }
}
