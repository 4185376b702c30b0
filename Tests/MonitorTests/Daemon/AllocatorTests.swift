import EndToEndSlot
import Foundation
import HTTPEngine
import TestSupport
import Testing

/// The daemon allocates with jemalloc (Package.swift says why); tests and benchmarks keep glibc's malloc.
@Suite("allocator", .timeLimit(.minutes(10)), .endToEndSlot)
struct AllocatorTests {
    @Test("the aasa-monitor binary's malloc is jemalloc's: it prints jemalloc's statistics when asked to")
    func binaryUsesJemalloc() async throws {
        // MALLOC_CONF is read by jemalloc alone; glibc's malloc ignores it and prints nothing.
        let completion = try await MonitorBinary.run(["--version"], environment: ["MALLOC_CONF": "stats_print:true"])
        #expect(completion.status == 0)
        #expect(completion.error.contains("Begin jemalloc statistics"), "stderr: \(completion.error.prefix(300))")
        // The binary's own options (`malloc_conf` in CurlShims.c), merged with the environment's.
        #expect(completion.error.contains("opt.narenas: 2"))
    }

    @Test("this test process runs on glibc's malloc, which freeing memory back to the system then uses")
    func testProcessUsesGlibc() {
        #expect(!ProcessHeap.usesJemalloc)
        ProcessHeap.releaseFreeMemory()
    }
}
