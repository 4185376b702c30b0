import Logging
import Synchronization
import Testing

@testable import MonitorCheck
@testable import MonitorDaemon
@testable import MonitorEndpoint

/// The endpoint accepts a connection only while the process keeps its descriptor reserve (issue 26 §1), and is
/// busy once half the connections it can take are open (issue 32 §2).
@Suite("endpoint connection gate")
struct EndpointConnectionGateTests {
    static func gate(free: Int?, maximum: Int = 64, reserve: Int = 32) -> EndpointConnectionGate {
        let limits = EndpointLimits(maximumConnections: maximum, descriptorReserve: reserve)
        return EndpointConnectionGate(
            load: EndpointLoad(limits: limits, logger: Logger(label: "test"), freeDescriptors: { free }))
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

    @Test("busy from half the slots on: of the connection limit, or of what the descriptor reserve leaves")
    func busy() {
        var gate = Self.gate(free: Int.max, maximum: 8)
        for _ in 0..<3 { gate.connectionOpened() }
        #expect(!gate.load.isBusy, "3 of 8 open")
        gate.connectionOpened()
        #expect(gate.load.isBusy, "4 of 8 open")
        gate.connectionClosed()
        #expect(!gate.load.isBusy, "3 of 8 open again")
        // 40 free, 32 kept: 8 more could open, so 8 open is half of the 16 slots.
        var short = Self.gate(free: 40, maximum: 64)
        for _ in 0..<7 { short.connectionOpened() }
        #expect(!short.load.isBusy, "7 open, 8 more possible")
        short.connectionOpened()
        #expect(short.load.isBusy, "8 open, 8 more possible")
    }

    @Test("far from the reserve the gate counts its own connections and lists /proc/self/fd once a second at most")
    func counting() {
        let listings = Atomic(0)
        let free = Atomic(1000)
        let clock = Mutex(ContinuousClock.now)
        let load = EndpointLoad(
            limits: EndpointLimits(maximumConnections: 1000, descriptorReserve: 32), logger: Logger(label: "test"),
            freeDescriptors: {
                listings.add(1, ordering: .relaxed)
                return free.load(ordering: .relaxed)
            }, now: { clock.withLock { $0 } })
        var gate = EndpointConnectionGate(load: load)
        for _ in 0..<100 {
            #expect(gate.isAcceptingNewConnections())
            gate.connectionOpened()
            free.subtract(1, ordering: .relaxed)
        }
        #expect(listings.load(ordering: .relaxed) == 1, "100 accepts with 900 or more free")
        clock.withLock { $0 += .seconds(1) }
        #expect(gate.isAcceptingNewConnections())
        #expect(listings.load(ordering: .relaxed) == 2, "a second later the count is taken afresh")
        // Near the reserve every decision counts: the reserve is never judged from an estimate.
        free.store(60, ordering: .relaxed)
        clock.withLock { $0 += .seconds(1) }
        #expect(gate.isAcceptingNewConnections())
        #expect(gate.isAcceptingNewConnections())
        #expect(listings.load(ordering: .relaxed) == 4)
        free.store(31, ordering: .relaxed)
        #expect(!gate.isAcceptingNewConnections(), "a descriptor taken elsewhere is seen at once")
    }

    @Test("the process counts its own free descriptors under its soft limit")
    func freeDescriptors() throws {
        let free = try #require(LocalResources.freeDescriptors())
        #expect(free > 0)
    }
}
